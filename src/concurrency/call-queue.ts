import { intProblem } from '../config/option-checks';
import { ServerBusyError } from '../errors';
import { abortError } from './abort';
import type { CallAbort } from './call-abort';
import { ADMIT, TAKE, type Admission } from './engine-slots';
import { SlotGate, type Release } from './slot-gate';

/**
 * Admission control for tool calls: at most so many run at once, at most so many wait. The
 * in-process {@link InProcessCallQueue} is the default; a multi-instance deployment can supply one
 * backed by a shared store (every call of the app asks it for a slot, and gives it back).
 *
 * @example
 * ```ts
 * class FleetQueue implements CallQueue {
 *   async acquire(signal: AbortSignal): Promise<Release> {
 *     const slot = await shared.take(signal); // waits in line; rejects once `signal` aborts
 *     return () => void shared.give(slot);
 *   }
 *   get active() { return shared.active; }
 *   get waiting() { return shared.waiting; }
 * }
 * FusionApp.create({ tools: [Billing], concurrency: { queue: new FleetQueue() } });
 * ```
 */
export interface CallQueue {
  /**
   * Resolves with a release function once a slot is free (call it once, in any case, when the
   * call ends). Rejects at once with `ServerBusyError` when the queue is full, and with the abort
   * reason as soon as `signal` aborts while waiting: the waiter leaves the queue at once.
   */
  acquire(signal: AbortSignal): Promise<Release>;
  /** Calls running now. */
  readonly active: number;
  /** Calls waiting now (the queue stage's span reports it). */
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
  /** @internal The engine's admission (see `engine-slots.ts`). */
  readonly [ADMIT]: Admission;

  /** Throws a `RangeError` when a limit is not a whole number, or `maxActive` is below 1 or `maxQueue` below 0. */
  constructor(options: CallQueueOptions = {}) {
    this.maxActive = limit(options.maxActive, 1, 64, 'maxActive');
    this.maxQueue = limit(options.maxQueue, 0, 1024, 'maxQueue');
    const gate = (this.gate = new SlotGate(this.maxActive));
    this[ADMIT] = {
      now: () => gate.tryAcquire(),
      wait: (waiter, call) => {
        if (call.aborted) throw call.error();
        if (gate.waiting >= this.maxQueue) throw new ServerBusyError(gate.waiting);
        gate.enqueue(waiter);
      }
    };
  }

  get active(): number {
    return this.gate.inUse;
  }

  get waiting(): number {
    return this.gate.waiting;
  }

  /** Resolves with a release function once a slot is free; see {@link CallQueue.acquire}. */
  acquire(signal: AbortSignal): Promise<Release> {
    if (signal.aborted) return Promise.reject(abortError(signal));
    const release = this.gate.tryAcquire();
    if (release) return Promise.resolve(release);
    return this.full() ?? this.gate.wait(signal);
  }

  /**
   * The engine's form (see `engine-slots.ts`): a free slot at once, else a wait on the call's own abort.
   *
   * @internal
   */
  [TAKE](call: CallAbort): Release | Promise<Release> {
    return this.gate.tryAcquire() ?? this.wait(call);
  }

  /** No free slot: the refusal of a full queue, or a wait on the call's abort. */
  private wait(call: CallAbort): Promise<Release> {
    if (call.aborted) return Promise.reject(call.error());
    return this.full() ?? this.gate.waitFor(call);
  }

  /** The refusal of a full queue, if it is full. */
  private full(): Promise<never> | undefined {
    return this.gate.waiting >= this.maxQueue ? Promise.reject(new ServerBusyError(this.gate.waiting)) : undefined;
  }
}

/** A limit, checked as every numeric option is; refused with a RangeError, as the queue always has. */
function limit(value: number | undefined, min: number, fallback: number, name: string): number {
  const problem = intProblem(value, min, name);
  if (problem !== undefined) throw new RangeError(problem);
  return value ?? fallback;
}
