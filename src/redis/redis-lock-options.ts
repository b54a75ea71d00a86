/** Options of {@link RedisMutationLock}. */
export interface RedisMutationLockOptions {
  /** The key prefix (one lock per prefix; every instance of a fleet uses the same). Default `mcpfusion:mutation`. */
  key?: string;
  /**
   * How long a grant (and a waiter's place in line) lives without being renewed, in whole ms: a holder
   * that dies (kill -9) frees the lock within this plus `pollMs`. Renewed every third of it. Default 5,000.
   */
  leaseMs?: number;
  /**
   * How often a waiter checks its line besides the grant messages (a dead holder sends none), and
   * keeps its place alive (at least every third of the lease). Default 500.
   */
  pollMs?: number;
}
