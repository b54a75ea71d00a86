import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AggregationTemporality, MeterProvider, MetricReader, type DataPoint, type MetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * The OpenTelemetry SDK as a test sees it: every ended span kept in memory (and waited for by
 * name, with no sleep), metrics collected on demand. Real SDK parts, in process.
 */
export class Recorder implements SpanProcessor {
  readonly spans: ReadableSpan[] = [];
  private waiters: Array<{ test: (span: ReadableSpan) => boolean; resolve: (span: ReadableSpan) => void }> = [];
  readonly tracerProvider = new BasicTracerProvider({ spanProcessors: [this] });
  readonly reader = new OnDemandReader();
  readonly meterProvider = new MeterProvider({ readers: [this.reader] });

  onStart(): void {}
  onEnd(span: ReadableSpan): void {
    this.spans.push(span);
    this.waiters = this.waiters.filter((w) => (w.test(span) ? (w.resolve(span), false) : true));
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }

  /** Resolves with the first ended span that passes `test` (one already ended included). */
  ended(test: (span: ReadableSpan) => boolean, what = 'a span'): Promise<ReadableSpan> {
    const found = this.spans.find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${what} did not end; ended: ${this.spans.map((s) => s.name).join(', ')}`)), 10_000);
      this.waiters.push({ test, resolve: (span) => (clearTimeout(timer), resolve(span)) });
    });
  }

  /** The ended span named `name` (waits for it). */
  named(name: string): Promise<ReadableSpan> {
    return this.ended((span) => span.name === name, `span "${name}"`);
  }

  /** Children of a span, in start order. */
  childrenOf(parent: ReadableSpan): ReadableSpan[] {
    return this.spans
      .filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId)
      .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
  }

  clear(): void {
    this.spans.length = 0;
  }

  /** Every metric collected now, by name. */
  async metrics(): Promise<Map<string, MetricData>> {
    const { resourceMetrics } = await this.reader.collect();
    const all = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
    return new Map(all.map((m) => [m.descriptor.name, m]));
  }

  async close(): Promise<void> {
    await this.tracerProvider.shutdown();
    await this.meterProvider.shutdown();
  }
}

/** A metric reader collected by the test itself (no export interval, no timer). */
export class OnDemandReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** The data points of a metric whose attributes include `where`. */
export function pointsOf(metric: MetricData | undefined, where: Record<string, unknown> = {}): DataPoint<unknown>[] {
  if (!metric) return [];
  return (metric.dataPoints as DataPoint<unknown>[]).filter((p) => Object.entries(where).every(([k, v]) => p.attributes[k] === v));
}

/** Registers what makes context flow through awaits (ALS) and W3C trace context propagation, as an app's setup would. */
export function registerContext(): () => void {
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return () => {
    context.disable();
    propagation.disable();
  };
}
