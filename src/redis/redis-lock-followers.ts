/** A waiter of this instance, and the fencing token Redis drew for it as it joined its line. */
export interface Follower {
  readonly id: string;
  readonly token: number;
}

/**
 * Who follows whom among one instance's acquisitions of the Redis lock: the waiter of this
 * instance Redis put right behind acquisition `id` in `line` (from the waiter's acquire reply, or
 * from the grant message of `id`). When `id` releases the line, that waiter is handed it at once.
 * An entry lives as long as `id` waits or holds: it is taken on release, and forgotten when `id`
 * leaves the line or held it shared.
 */
export class LockFollowers {
  private readonly byLeader = new Map<string, Follower>();

  /** Records that `follower` waits right behind `id` in `line`. */
  set(id: string, line: string, follower: Follower): void {
    this.byLeader.set(key(id, line), follower);
  }

  /** The follower of `id` in `line`, if there is one; it is forgotten. */
  take(id: string, line: string): Follower | undefined {
    const k = key(id, line);
    const follower = this.byLeader.get(k);
    this.byLeader.delete(k);
    return follower;
  }

  /** Forgets the follower of `id` in `line`. */
  forget(id: string, line: string): void {
    this.byLeader.delete(key(id, line));
  }
}

/** An id is a UUID (36 characters), so the id and the line need no separator. */
function key(id: string, line: string): string {
  return id + line;
}
