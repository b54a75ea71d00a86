import type { TextMapGetter } from '@opentelemetry/api';

/** Longer values are not read (a W3C `traceparent` is 55 characters; `tracestate` and `baggage` stay well below this). */
const MAX_VALUE_LENGTH = 8192;

/**
 * Reads trace context from a request's `params._meta` (SEP-414: unprefixed `traceparent`,
 * `tracestate`, `baggage`). The material is untrusted: only own string properties of bounded
 * length are read; the propagator ignores what does not parse, so a malformed value starts a
 * new trace and never fails the request.
 */
export const META_GETTER: TextMapGetter<Readonly<Record<string, unknown>> | undefined> = {
  keys: (carrier) => (carrier ? Object.keys(carrier) : []),
  get(carrier, key) {
    if (!carrier || !Object.prototype.hasOwnProperty.call(carrier, key)) return undefined;
    const value = carrier[key];
    return typeof value === 'string' && value.length <= MAX_VALUE_LENGTH ? value : undefined;
  }
};

/** Whether a `_meta` carries any trace context at all (most requests do not: nothing is extracted then). */
export function carriesTraceContext(meta: Readonly<Record<string, unknown>> | undefined): boolean {
  return meta !== undefined && (Object.prototype.hasOwnProperty.call(meta, 'traceparent') || Object.prototype.hasOwnProperty.call(meta, 'baggage'));
}
