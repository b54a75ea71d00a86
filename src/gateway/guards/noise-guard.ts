import { UPSTREAM_LIMITS } from './limits';

/**
 * What an upstream sends that belongs to nobody (garbage lines, responses to ids never sent,
 * requests no call made), kept to a few log lines per kind and then only counted, so that a flood
 * fills neither memory nor the log; and a token bucket for the requests no call made: a burst is
 * refused one by one, a stream that outruns the refill makes the connection hostile.
 */
export class NoiseGuard {
  private readonly counts = new Map<string, number>();
  private tokens: number = UPSTREAM_LIMITS.unrequestedBurst;
  private refilledAt: number;

  /** `log` is the gateway's diagnostics; `now` the clock the bucket refills by. */
  constructor(
    private readonly log: (message: string) => void,
    private readonly now: () => number = Date.now
  ) {
    this.refilledAt = now();
  }

  /** Logs `message` as the next of its `kind`: the first few in full, then one line at each power of ten. */
  note(kind: string, message: string): void {
    const count = (this.counts.get(kind) ?? 0) + 1;
    this.counts.set(kind, count);
    if (count <= UPSTREAM_LIMITS.loggedNoise) this.log(message);
    else if (Number.isInteger(Math.log10(count))) this.log(`${message} (${count} of this kind so far; only some are logged)`);
  }

  /** How many of `kind` were noted. */
  count(kind: string): number {
    return this.counts.get(kind) ?? 0;
  }

  /** Charges one request no call made; false when the upstream ran past its burst (it is to be disconnected). */
  unrequested(): boolean {
    const now = this.now();
    const { unrequestedBurst, unrequestedPerSecond } = UPSTREAM_LIMITS;
    this.tokens = Math.min(unrequestedBurst, this.tokens + ((now - this.refilledAt) / 1000) * unrequestedPerSecond);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
