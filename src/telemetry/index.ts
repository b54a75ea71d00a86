export { Telemetry, type RequestStart } from './telemetry';
export { RequestTrace } from './request-trace';
export type { TelemetryOptions } from './telemetry-options';
export * from './conventions';
