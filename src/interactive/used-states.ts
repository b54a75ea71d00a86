/**
 * The ids of single-use continuation states that were used, kept until those states have
 * expired anyway. Insertion order is expiry order (one TTL for all), so pruning walks from
 * the front and stops at the first id still live: constant amortized work per use.
 */
export class UsedStates {
  private readonly expiries = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now
  ) {}

  /** Marks `id` used; `false` when it was used already (a replay). */
  consume(id: string): boolean {
    const now = this.now();
    for (const [old, expiry] of this.expiries) {
      if (expiry > now) break;
      this.expiries.delete(old);
    }
    if (this.expiries.has(id)) return false;
    this.expiries.set(id, now + this.ttlMs);
    return true;
  }

  /** Ids remembered now. */
  get size(): number {
    return this.expiries.size;
  }
}
