/** What a claim of an exactly-once round found (see `ContinuationStore.claim`, which says when each is returned). */
export type ClaimOutcome =
  | {
      /** This attempt runs the handler (first, or the last attempt ended without an outcome). */
      readonly kind: 'run';
    }
  | {
      /** The round has an outcome, returned without running anything. */
      readonly kind: 'done';
      /** The outcome recorded for the round (the answer its client would have received). */
      readonly outcome: unknown;
    }
  | {
      /** The state was used by a different round (other answers), as a replay is. */
      readonly kind: 'refused';
    };

interface Round {
  readonly fingerprint: string;
  done: boolean;
  /** An attempt holds the round now (a released round is not running: the next re-issue of it runs). */
  running: boolean;
  outcome?: unknown;
  readonly expiresAt: number;
  /** Re-issues waiting for the running attempt to end. */
  readonly waiters: Set<() => void>;
}

/**
 * The rounds of exactly-once members in this process (`@Interactive({ exactlyOnce: true })`):
 * each single-use state is claimed by the first attempt of its round, and holds that attempt's
 * outcome once it has one, until the state expires. A re-issue of the same round (same
 * fingerprint: tool, arguments, answers, caller) waits for a running attempt and gets its
 * outcome; one that differs is refused; an attempt that ends without an outcome gives the
 * claim back, so the next re-issue runs the handler. A round given back keeps its fingerprint:
 * its state sent again with other answers is still refused (the answers the failed attempt ran
 * with are the round's: a "no" that failed never becomes a "yes").
 */
export class RoundOutcomes {
  private readonly rounds = new Map<string, Round>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now
  ) {}

  async claim(id: string, fingerprint: string, signal?: AbortSignal): Promise<ClaimOutcome> {
    for (;;) {
      this.prune();
      const round = this.rounds.get(id);
      if (!round) {
        this.rounds.set(id, { fingerprint, done: false, running: true, expiresAt: this.now() + this.ttlMs, waiters: new Set() });
        return { kind: 'run' };
      }
      if (round.fingerprint !== fingerprint) return { kind: 'refused' };
      if (round.done) return { kind: 'done', outcome: round.outcome };
      if (!round.running) {
        round.running = true;
        return { kind: 'run' };
      }
      await changeOf(round, signal);
    }
  }

  recordOutcome(id: string, outcome: unknown): void {
    const round = this.rounds.get(id);
    if (!round || round.done) return;
    round.done = true;
    round.outcome = outcome;
    wake(round);
  }

  releaseClaim(id: string): void {
    const round = this.rounds.get(id);
    if (!round || round.done) return;
    round.running = false;
    wake(round);
  }

  /** Rounds remembered now. */
  get size(): number {
    return this.rounds.size;
  }

  /** Insertion order is expiry order (one TTL for all): prune from the front. */
  private prune(): void {
    const now = this.now();
    for (const [id, round] of this.rounds) {
      if (round.expiresAt > now) break;
      if (round.running && round.waiters.size > 0) continue;
      this.rounds.delete(id);
    }
  }
}

function wake(round: Round): void {
  for (const waiter of [...round.waiters]) waiter();
}

/** Resolves when the round's running attempt ends (recorded or released); rejects when `signal` aborts. */
function changeOf(round: Round, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = (): void => {
      round.waiters.delete(done);
      signal?.removeEventListener('abort', abort);
      resolve();
    };
    const abort = (): void => {
      round.waiters.delete(done);
      reject(signal?.reason);
    };
    round.waiters.add(done);
    signal?.addEventListener('abort', abort, { once: true });
  });
}
