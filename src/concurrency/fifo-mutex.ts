import { abortError } from './abort';
import type { CallAbort } from './call-abort';
import { SlotGate, type Release } from './slot-gate';

/**
 * The lock that serializes mutations. The in-process {@link FifoMutex} is the default;
 * a multi-instance deployment can supply a distributed one.
 */
export interface MutationLock {
  /**
   * Resolves with a release function when the caller holds the lock. Waiters are served
   * in arrival order; an aborted waiter leaves at once and the others keep their order.
   */
  acquire(signal: AbortSignal): Promise<Release>;
  /** Optional: takes the lock now if it is free (no signal needed); undefined otherwise. */
  tryAcquire?(): Release | undefined;
  /** Optional: `acquire` for one of the engine's calls, waiting on its abort directly (see `CallQueue.acquireFor`). */
  acquireFor?(call: CallAbort): Promise<Release>;
  /** Whether someone holds the lock now. */
  readonly locked: boolean;
}

/** An abort-aware FIFO mutex (in-process). */
export class FifoMutex implements MutationLock {
  private readonly gate = new SlotGate(1);

  get locked(): boolean {
    return this.gate.inUse > 0;
  }

  /** Waiters now. */
  get waiting(): number {
    return this.gate.waiting;
  }

  tryAcquire(): Release | undefined {
    return this.gate.tryAcquire();
  }

  acquireFor(call: CallAbort): Promise<Release> {
    if (call.aborted) return Promise.reject(call.error());
    const release = this.gate.tryAcquire();
    return release ? Promise.resolve(release) : this.gate.waitFor(call);
  }

  acquire(signal: AbortSignal): Promise<Release> {
    if (signal.aborted) return Promise.reject(abortError(signal));
    const release = this.gate.tryAcquire();
    return release ? Promise.resolve(release) : this.gate.wait(signal);
  }
}
