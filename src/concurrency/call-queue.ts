import { intProblem } from '../config/option-checks';
import { ServerBusyError } from '../errors';
import { abortError } from './abort';
import type { CallAbort } from './call-abort';
import { SlotGate, type Release } from './slot-gate';

export type { Release } from './slot-gate';

/**
 * Admission control for tool calls: at most `maxActive` run at once, at most
 * `maxQueue` wait. The in-process {@link InProcessCallQueue} is the default; a
 * multi-instance deployment can supply one backed by a shared store.
 */
export interface CallQueue {
  /**
   * Resolves with a release function once a slot is free. Rejects at once with
   * `ServerBusyError` when the queue is full, and with the abort reason as soon as
   * `signal` aborts while waiting (the waiter leaves the queue in constant time).
   */
  acquire(signal: AbortSignal): Promise<Release>;
  /**
   * Optional: takes a slot now if one is free and nobody waits, without a signal (the engine
   * then skips making one); undefined otherwise, and the caller waits with `acquire`.
   */
  tryAcquire?(): Release | undefined;
  /**
   * Optional: `acquire` for one of the engine's calls, waiting on its abort directly (the
   * in-process queue does; a waiting call then needs no AbortSignal, and its cancellation no event).
   */
  acquireFor?(call: CallAbort): Promise<Release>;
  /** Calls running now. */
  readonly active: number;
  /** Calls waiting now. */
  readonly waiting: number;
}

/** Limits of a {@link CallQueue}. */
export interface CallQueueOptions {
  /** Calls that may run at once. Default 64. */
  maxActive?: number;
  /** Calls that may wait for a slot; more are refused with "server busy". Default 1024. */
  maxQueue?: number;
}

/** The default, in-process {@link CallQueue}. */
export class InProcessCallQueue implements CallQueue {
  /** Calls that may run at once (the `maxActive` option, default 64). */
  readonly maxActive: number;
  /** Calls that may wait for a slot (the `maxQueue` option, default 1024). */
  readonly maxQueue: number;
  private readonly gate: SlotGate;

  /** Throws a `RangeError` when a limit is not a whole number, or `maxActive` is below 1 or `maxQueue` below 0. */
  constructor(options: CallQueueOptions = {}) {
    this.maxActive = limit(options.maxActive, 1, 64, 'maxActive');
    this.maxQueue = limit(options.maxQueue, 0, 1024, 'maxQueue');
    this.gate = new SlotGate(this.maxActive);
  }

  get active(): number {
    return this.gate.inUse;
  }

  get waiting(): number {
    return this.gate.waiting;
  }

  tryAcquire(): Release | undefined {
    return this.gate.tryAcquire();
  }

  acquire(signal: AbortSignal): Promise<Release> {
    if (signal.aborted) return Promise.reject(abortError(signal));
    return this.admit() ?? this.gate.wait(signal);
  }

  acquireFor(call: CallAbort): Promise<Release> {
    if (call.aborted) return Promise.reject(call.error());
    return this.admit() ?? this.gate.waitFor(call);
  }

  /** A free slot, or the refusal of a full queue; undefined when the caller is to wait in line. */
  private admit(): Promise<Release> | undefined {
    const release = this.gate.tryAcquire();
    if (release) return Promise.resolve(release);
    if (this.gate.waiting >= this.maxQueue) return Promise.reject(new ServerBusyError(this.gate.waiting));
    return undefined;
  }
}

/** A limit, checked as every numeric option is; refused with a RangeError, as the queue always has. */
function limit(value: number | undefined, min: number, fallback: number, name: string): number {
  const problem = intProblem(value, min, name);
  if (problem !== undefined) throw new RangeError(problem);
  return value ?? fallback;
}
