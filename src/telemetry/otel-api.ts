import type * as OtelApi from '@opentelemetry/api';

let loaded: typeof OtelApi | undefined;

/**
 * The OpenTelemetry API, loaded on first use rather than at import: an app is made and takes its
 * port without it (cold start), and its telemetry is made with the first server it builds (the
 * first request). A traced stage reads it here: by then the request's trace has loaded it.
 */
export function otelApi(): typeof OtelApi {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (above)
  return (loaded ??= require('@opentelemetry/api') as typeof OtelApi);
}
