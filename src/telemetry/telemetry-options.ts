import type { MeterProvider, TracerProvider } from '@opentelemetry/api';

/**
 * Where an app's telemetry goes (`FusionAppOptions.telemetry`). By default the providers
 * registered globally with the OpenTelemetry API (`NodeSDK.start()`, `provider.register()`,
 * `metrics.setGlobalMeterProvider`): register them before `FusionApp.create()`. With none
 * registered the API is a no-op and so is every span and metric here. `false` compiles the
 * chains without any telemetry step at all.
 */
export interface TelemetryOptions {
  /** Default: the global tracer provider (read on each request, so one registered later still counts). */
  readonly tracerProvider?: TracerProvider;
  /** Default: the global meter provider, as registered when the app is created. */
  readonly meterProvider?: MeterProvider;
}
