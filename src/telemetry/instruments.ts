import { ValueType, createNoopMeter, type Attributes, type Counter, type Histogram, type Meter, type UpDownCounter } from '@opentelemetry/api';
import {
  METRIC_CALLS_ACTIVE,
  METRIC_CALLS_CANCELLED,
  METRIC_CALLS_SHED,
  METRIC_INPUT_ROUNDS,
  METRIC_LOCK_WAIT,
  METRIC_OPERATION_DURATION,
  METRIC_QUEUE_DEPTH,
  METRIC_QUEUE_WAIT,
  OPERATION_DURATION_BUCKETS
} from './conventions';

/** What the metric callbacks read (the app's queue). */
export interface QueueGauge {
  readonly waiting: number;
}

const NOOP_METER_CLASS = createNoopMeter().constructor;

/**
 * The framework's metrics: the conventions' `mcp.server.operation.duration`, and its own (calls
 * in flight, queue depth, calls shed, cancellations by source, lock and queue waits, input
 * rounds). Made once per app; `live` is false when the meter is the API's no-op (nothing is
 * recorded, not even the attributes are built).
 */
export class Instruments {
  readonly live: boolean;
  readonly duration: Histogram;
  readonly active: UpDownCounter;
  readonly shed: Counter;
  readonly cancelled: Counter;
  readonly lockWait: Histogram;
  readonly queueWait: Histogram;
  readonly inputRounds: Counter;

  constructor(meter: Meter, queue: QueueGauge | undefined) {
    this.live = !(meter instanceof NOOP_METER_CLASS);
    this.duration = meter.createHistogram(METRIC_OPERATION_DURATION, {
      unit: 's',
      description: 'The duration of an MCP request as the server handled it.',
      advice: { explicitBucketBoundaries: OPERATION_DURATION_BUCKETS }
    });
    this.active = meter.createUpDownCounter(METRIC_CALLS_ACTIVE, { unit: '{call}', description: 'Requests being handled now.', valueType: ValueType.INT });
    this.shed = meter.createCounter(METRIC_CALLS_SHED, { unit: '{call}', description: 'Calls refused because the queue was full.', valueType: ValueType.INT });
    this.cancelled = meter.createCounter(METRIC_CALLS_CANCELLED, { unit: '{call}', description: 'Calls cancelled, by source.', valueType: ValueType.INT });
    this.lockWait = meter.createHistogram(METRIC_LOCK_WAIT, { unit: 's', description: 'Time a mutation waited for the mutation lock.', advice: { explicitBucketBoundaries: WAIT_BUCKETS } });
    this.queueWait = meter.createHistogram(METRIC_QUEUE_WAIT, { unit: 's', description: 'Time a call waited for a slot of the queue.', advice: { explicitBucketBoundaries: WAIT_BUCKETS } });
    this.inputRounds = meter.createCounter(METRIC_INPUT_ROUNDS, { unit: '{round}', description: 'Requests for input made, by kind.', valueType: ValueType.INT });
    if (queue && this.live) {
      const depth = meter.createObservableGauge(METRIC_QUEUE_DEPTH, { unit: '{call}', description: 'Calls waiting for a slot.', valueType: ValueType.INT });
      depth.addCallback((result) => result.observe(queue.waiting));
    }
  }

  /** Records a wait of a stage (`queue`, `mutation-lock`), in seconds. */
  wait(stage: string, seconds: number, attributes: Attributes): void {
    if (stage === 'queue') this.queueWait.record(seconds, attributes);
    else if (stage === 'mutation-lock') this.lockWait.record(seconds, attributes);
  }
}

const WAIT_BUCKETS = [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60];
