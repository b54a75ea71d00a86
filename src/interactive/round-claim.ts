import type { ContinuationStore } from './continuation-store';

/**
 * An exactly-once round claimed by this attempt: when the call ends, its answer is recorded as
 * the round's outcome, or (aborted, failed before it finished) the claim is given back so that
 * a re-issue runs the handler.
 */
export class RoundClaim {
  /** Renews the claim's lease while the attempt runs (a shared store with leases only; cleared at the end). */
  private readonly renewal: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly store: ContinuationStore,
    private readonly id: string
  ) {
    const lease = store.claimLeaseMs;
    if (lease !== undefined && store.renewClaim) {
      this.renewal = setInterval(() => void store.renewClaim?.(id).catch(() => undefined), Math.max(1, Math.floor(lease / 3)));
      // A claim never keeps the process alive: shutting down ends its attempt, and the lease lapses.
      // (workerd's timers are plain numbers, with nothing to unref: no process to keep alive there.)
      (this.renewal as { unref?: () => void }).unref?.();
    }
  }

  /** The call ended: `answer` is what its client receives; `completed` says whether it is an outcome. */
  end(answer: unknown, completed: boolean): void {
    if (this.renewal) clearInterval(this.renewal);
    const ending = completed ? this.store.recordOutcome?.(this.id, answer) : this.store.releaseClaim?.(this.id);
    // Not awaited by the answer: the record is the round's, a re-issue waits for it.
    ending?.catch(() => undefined);
  }
}
