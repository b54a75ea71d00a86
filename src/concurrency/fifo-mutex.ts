import type { KeyGrant } from '../types/lock';
import { abortError } from './abort';
import { CallAbort, type AbortListener } from './call-abort';
import { TAKE, TAKE_KEYS } from './engine-slots';
import { LockLine, type LineMode, type LineWaiter } from './lock-line';
import { keepWaitAlive } from './worker-wait';

/**
 * A grant of the mutation lock: give it back once. It may say what it holds (its fencing tokens,
 * its keys). Calling it may return a promise, which the call waits for before it answers (its
 * outcome already decided, out of reach of aborts): the Redis lock returns one that settles a turn
 * of the event loop later, so the next holder goes first (the release reaches Redis, a waiter of
 * this process handed the line runs its critical section) and the releasing call answers after.
 */
export type LockRelease = (() => void | Promise<void>) & {
  /** The grant's fencing token (the first key's for a keyed grant). A lock that gives none leaves `ctx.lock` unset. */
  readonly fencingToken?: number;
  /** The keys held, sorted, each with its own fencing token; empty or absent for an app-wide grant. */
  readonly keys?: readonly KeyGrant[];
};

/**
 * The lock that serializes mutations. The in-process {@link FifoMutex} is the default;
 * a multi-instance deployment can supply a distributed one (`RedisMutationLock`).
 *
 * It is a readers-writer lock over keys: `acquire` takes the whole app (exclusive: it waits
 * for every mutation in flight, keyed ones included, and excludes all of them while it runs);
 * `acquireKeys` takes the app shared and each key exclusive, so mutations on disjoint keys run
 * in parallel and those that share a key run one at a time, in arrival order. A lock without
 * `acquireKeys` serves keyed mutations app-wide (correct, only without their parallelism).
 *
 * @example
 * ```ts
 * class LeaseLock implements MutationLock {
 *   async acquire(signal: AbortSignal): Promise<LockRelease> {
 *     const lease = await store.lease('app', signal); // in arrival order; rejects once `signal` aborts
 *     return Object.assign(() => store.give(lease), { fencingToken: lease.token });
 *   }
 *   get locked() { return store.held('app'); }
 * }
 * FusionApp.create({ tools: [Billing], mutationLock: new LeaseLock() });
 * ```
 */
export interface MutationLock {
  /**
   * Resolves with a release function when the caller holds the lock app-wide. Waiters are served
   * in arrival order; an aborted waiter leaves at once (rejecting with the abort reason) and the
   * others keep their order.
   */
  acquire(signal: AbortSignal): Promise<LockRelease>;
  /**
   * Optional: holds `keys` (sorted, without duplicates: the caller gives them in canonical
   * order) until released, each in arrival order, after any app-wide holder or earlier app-wide
   * waiter. An aborted waiter leaves at once and gives back what it held.
   */
  acquireKeys?(keys: readonly string[], signal: AbortSignal): Promise<LockRelease>;
  /** Whether someone holds the lock now. */
  readonly locked: boolean;
}

/** One hold of one line, as a grant records it (to give it back in reverse order). */
interface Hold {
  readonly line: LockLine;
  readonly mode: LineMode;
  readonly key?: string;
}

/**
 * An abort-aware FIFO mutex (in-process), keyed: the app-wide lock and one line per key, made
 * when first needed and forgotten when nobody holds or waits for it (memory is bounded by what is
 * held or waited for). Keys are taken one after the other in canonical (sorted) order, so two
 * multi-key mutations can never deadlock. Fencing tokens come from one counter for every grant,
 * started from the clock (µs since the epoch), so they grow across restarts too.
 */
export class FifoMutex implements MutationLock {
  private readonly app = new LockLine();
  private readonly lines = new Map<string, LockLine>();
  // Tokens start from the clock (µs since the epoch) and grow by one per grant: a process started
  // later hands out larger tokens than this one did, so a fenced write stays refused across a restart.
  private fence = Date.now() * 1000;

  /** Whether someone holds the lock now (app-wide, or any key). */
  get locked(): boolean {
    return this.app.held;
  }

  /** Waiters now (for the app-wide lock, and for the keys). */
  get waiting(): number {
    let count = this.app.waiting;
    for (const line of this.lines.values()) count += line.waiting;
    return count;
  }

  /** Lines kept for keys now (held or waited for; a test of the memory bound reads it). */
  get keyCount(): number {
    return this.lines.size;
  }

  /** Resolves with a release function when the caller holds the app exclusive; see {@link MutationLock.acquire}. */
  acquire(signal: AbortSignal): Promise<LockRelease> {
    if (signal.aborted) return Promise.reject(abortError(signal));
    return this.acquireHolds([], CallAbort.following(signal));
  }

  /** Holds `keys` (sorted, without duplicates) and the app shared; see {@link MutationLock.acquireKeys}. */
  acquireKeys(keys: readonly string[], signal: AbortSignal): Promise<LockRelease> {
    if (signal.aborted) return Promise.reject(abortError(signal));
    return this.acquireHolds(keys, CallAbort.following(signal));
  }

  /**
   * The engine's form (see `engine-slots.ts`): the app exclusive at once if free, else a wait on the call's own abort.
   *
   * @internal
   */
  [TAKE](call: CallAbort): LockRelease | Promise<LockRelease> {
    return this.tryAcquire() ?? this.acquireHolds([], call);
  }

  /**
   * The engine's keyed form: `keys` at once if all are free and nobody waits for them, else a wait on the call's own abort.
   *
   * @internal
   */
  [TAKE_KEYS](keys: readonly string[], call: CallAbort): LockRelease | Promise<LockRelease> {
    return this.tryAcquireKeys(keys) ?? this.acquireHolds(keys, call);
  }

  /**
   * Takes the app exclusive now if it is free; undefined otherwise.
   *
   * @internal
   */
  tryAcquire(): LockRelease | undefined {
    if (!this.app.free('exclusive')) return undefined;
    this.app.take('exclusive');
    return this.releaser([{ line: this.app, mode: 'exclusive' }], ++this.fence, []);
  }

  /**
   * Takes `keys` now if all are free and nobody waits for them; undefined otherwise.
   *
   * @internal
   */
  tryAcquireKeys(keys: readonly string[]): LockRelease | undefined {
    if (!this.app.free('shared')) return undefined;
    for (const key of keys) if (!(this.lines.get(key)?.free('exclusive') ?? true)) return undefined;
    this.app.take('shared');
    const holds: Hold[] = [{ line: this.app, mode: 'shared' }];
    const grants: KeyGrant[] = [];
    for (const key of keys) {
      const line = this.lineOf(key);
      line.take('exclusive');
      holds.push({ line, mode: 'exclusive', key });
      grants.push({ key, fencingToken: ++this.fence });
    }
    return this.releaser(holds, grants[0]?.fencingToken ?? ++this.fence, grants);
  }

  /** No keys: the app exclusive. Keys: the app shared, then each key exclusive, in the order given. */
  private async acquireHolds(keys: readonly string[], call: CallAbort): Promise<LockRelease> {
    if (call.aborted) throw call.error();
    const holds: Hold[] = [];
    const grants: KeyGrant[] = [];
    let token = 0;
    try {
      await this.hold({ line: this.app, mode: keys.length === 0 ? 'exclusive' : 'shared' }, call, holds);
      if (keys.length === 0) token = ++this.fence;
      for (const key of keys) {
        // Between two keys the call may have been aborted: it gives back what it holds.
        if (call.aborted) throw call.error();
        await this.hold({ line: this.lineOf(key), mode: 'exclusive', key }, call, holds);
        grants.push({ key, fencingToken: ++this.fence });
      }
    } catch (error) {
      this.giveBack(holds);
      throw error;
    }
    return this.releaser(holds, grants[0]?.fencingToken ?? token, grants);
  }

  /** Takes one line now if it is free, else waits in it; pushed to `holds` once held. */
  private hold(hold: Hold, call: CallAbort, holds: Hold[]): Promise<void> | undefined {
    if (hold.line.free(hold.mode)) {
      hold.line.take(hold.mode);
      holds.push(hold);
      return undefined;
    }
    return new Promise<void>((resolve, reject) => {
      // In a Worker, the holder's release comes from another request: this one keeps itself alive meanwhile.
      const ended = keepWaitAlive();
      const waiter = new KeyWaiter(
        hold,
        call,
        () => {
          ended();
          holds.push(hold);
          resolve();
        },
        (error) => {
          ended();
          this.forgetIfIdle(hold);
          reject(error);
        }
      );
      hold.line.enqueue(waiter);
      call.onAbort(waiter);
    });
  }

  private releaser(holds: readonly Hold[], fencingToken: number, keys: readonly KeyGrant[]): LockRelease {
    let released = false;
    const release = (() => {
      if (released) return;
      released = true;
      this.giveBack(holds);
    }) as LockRelease & { fencingToken: number; keys: readonly KeyGrant[] };
    release.fencingToken = fencingToken;
    release.keys = keys;
    return release;
  }

  /** Gives back every hold, the last taken first; a key's line nobody holds or waits for is forgotten. */
  private giveBack(holds: readonly Hold[]): void {
    for (let i = holds.length - 1; i >= 0; i--) {
      holds[i].line.release(holds[i].mode);
      this.forgetIfIdle(holds[i]);
    }
  }

  private lineOf(key: string): LockLine {
    let line = this.lines.get(key);
    if (!line) this.lines.set(key, (line = new LockLine()));
    return line;
  }

  private forgetIfIdle(hold: Hold): void {
    if (hold.key !== undefined && hold.line.idle && this.lines.get(hold.key) === hold.line) this.lines.delete(hold.key);
  }
}

/** One wait in one line: granted, or aborted (and unlinked), whichever is first. */
class KeyWaiter implements LineWaiter, AbortListener {
  prev: LineWaiter | undefined = undefined;
  next: LineWaiter | undefined = undefined;
  linked = false;
  readonly mode: LineMode;

  constructor(
    private readonly hold: Hold,
    private readonly call: CallAbort,
    private readonly onGranted: () => void,
    private readonly onAborted: (error: Error) => void
  ) {
    this.mode = hold.mode;
  }

  granted(): void {
    this.call.offAbort(this);
    this.onGranted();
  }

  onCallAbort(error: Error): void {
    this.hold.line.leave(this);
    this.onAborted(error);
  }
}
