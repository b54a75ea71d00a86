/**
 * What the mutation lock grants (shared by the concurrency layer, the chain and the Redis lock;
 * imports nothing).
 */

/** One key a mutation holds, with the fencing token of its grant. */
export interface KeyGrant {
  /** The key, as the mutation's key function gave it (`invoice:42`). */
  readonly key: string;
  /**
   * A number that only grows, from one counter of the lock: a later holder of this key always has a
   * larger token, so a write that carries it can be refused when a later holder has written since.
   */
  readonly fencingToken: number;
}

/**
 * The grant a mutation runs under (`ctx.lock`). An app-wide mutation holds no key and has the
 * token of its app-wide grant; a keyed mutation holds its keys, each with its own token, and
 * `fencingToken` is that of its first key (the keys are in canonical order, sorted).
 */
export interface LockGrant {
  /** The grant's fencing token: the app-wide grant's, or that of the first key. */
  readonly fencingToken: number;
  /** The keys held, sorted and without duplicates (empty for an app-wide mutation). */
  readonly keys: readonly KeyGrant[];
}
