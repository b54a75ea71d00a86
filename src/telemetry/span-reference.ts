import { TraceFlags, isSpanContextValid, type SpanContext } from '@opentelemetry/api';

/**
 * A span context as a W3C `traceparent` string, and back: what a sealed `requestState` and a
 * stored task carry so that a later request (another round, `tasks/update`, `tasks/cancel`,
 * perhaps on another instance) can link to the span that started the story. Parsed strictly:
 * anything else is no reference at all.
 */
export function spanReference(context: SpanContext): string | undefined {
  if (!isSpanContextValid(context)) return undefined;
  const flags = (context.traceFlags & TraceFlags.SAMPLED).toString(16).padStart(2, '0');
  return `00-${context.traceId}-${context.spanId}-${flags}`;
}

const REFERENCE = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The span context a reference names, or undefined when it is not one. */
export function referencedSpan(reference: unknown): SpanContext | undefined {
  if (typeof reference !== 'string') return undefined;
  const match = REFERENCE.exec(reference);
  if (!match) return undefined;
  const context: SpanContext = { traceId: match[1]!, spanId: match[2]!, traceFlags: parseInt(match[3]!, 16) & TraceFlags.SAMPLED, isRemote: true };
  return isSpanContextValid(context) ? context : undefined;
}
