import { diag, DiagLogLevel } from '@opentelemetry/api';

/** What main.ts holds while telemetry is exported: flushed and stopped on shutdown. */
export interface ExportedTelemetry {
  shutdown(): Promise<void>;
}

/**
 * OpenTelemetry export for the sample app, when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (and nothing
 * at all otherwise: the SDK is not even loaded). The SDK is the application's choice, not the
 * framework's: `@mcpfusion/core` depends on `@opentelemetry/api` only, and these packages are
 * the sample app's. `NodeSDK` reads the standard variables: `OTEL_EXPORTER_OTLP_PROTOCOL`
 * (`http/protobuf`, the default, or `http/json`), `OTEL_SERVICE_NAME`, `OTEL_BSP_SCHEDULE_DELAY`,
 * `OTEL_METRIC_EXPORT_INTERVAL`, `OTEL_RESOURCE_ATTRIBUTES`, the samplers. It registers the
 * `AsyncLocalStorage` context manager (so spans made in handlers nest under the framework's) and
 * the W3C propagators (so a client's `traceparent` in `_meta` is the parent). Started before
 * the app is created: the framework takes the global providers then.
 */
export async function telemetryFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<ExportedTelemetry | undefined> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  // The SDK's own diagnostics go to stderr: on stdio, stdout is the protocol channel (its console logger writes info to stdout).
  const level = env.OTEL_LOG_LEVEL?.toUpperCase();
  delete env.OTEL_LOG_LEVEL;
  diag.setLogger(stderrLogger, level && level in DiagLogLevel ? DiagLogLevel[level as keyof typeof DiagLogLevel] : DiagLogLevel.WARN);
  env.OTEL_TRACES_EXPORTER ??= 'otlp';
  env.OTEL_METRICS_EXPORTER ??= 'otlp';
  env.OTEL_LOGS_EXPORTER ??= 'none';
  env.OTEL_SERVICE_NAME ??= 'billing-desk';
  // Loaded here, on need (CommonJS, like the framework: one copy of the API's globals).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK();
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}

const write = (level: string) => (message: string, ...args: unknown[]) =>
  void process.stderr.write(`otel ${level}: ${message}${args.length ? ' ' + args.map(String).join(' ') : ''}\n`);

const stderrLogger = { error: write('error'), warn: write('warn'), info: write('info'), debug: write('debug'), verbose: write('verbose') };
