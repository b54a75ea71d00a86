import { randomUUID } from 'node:crypto';
import type { CallAbort } from '../concurrency/call-abort';
import { abortError } from '../concurrency/abort';
import { TAKE, TAKE_KEYS } from '../concurrency/engine-slots';
import type { LockRelease, MutationLock } from '../concurrency/fifo-mutex';
import { duration } from '../config/option-checks';
import type { KeyGrant } from '../types/lock';
import { LockUnavailableError } from './lock-unavailable-error';
import type { RedisConnection } from './redis-connection';
import { ACQUIRE, CHECK, RELEASE, RENEW } from './redis-lock-scripts';
import type { RedisMutationLockOptions } from './redis-lock-options';
import { LockFollowers } from './redis-lock-followers';
import { linesOf, parseGrant, runScript, type Line, type Waiting } from './redis-lock-wire';

/**
 * The fleet-wide form of `FifoMutex`, on Redis, keyed: one readers-writer line for the app and
 * one line per key, each served in arrival order across every instance that shares the prefix.
 * Built on Redis primitives with Lua scripts (`redis-lock-scripts.ts`: lists for the lines, a
 * sorted set of leases for the holders, one counter for fencing tokens) rather than redlock or
 * redis-semaphore, which give neither FIFO order across processes nor a waiter that leaves the
 * line the moment it is aborted.
 *
 * - A release hands each line to the next waiter in it and wakes only that one: the grant is
 *   published on the waiter's own instance channel, and the waiter has it (no retry). An
 *   uncontended mutation costs two scripts (acquire, release), a contended one the same.
 *   When the next in line is of the releasing instance (Redis told it, with the token drawn for
 *   it ahead, as it joined the line), the instance hands it the line as the holder releases: no
 *   round trip between them, so a run of one instance's waiters goes at in-process speed.
 * - An aborted waiter leaves at once, giving back what it held; the next in line is served.
 * - The holder renews its lease while it runs; a holder that dies stops renewing and its lines
 *   are free when the lease runs out (`leaseMs`, default 5 s); a waiter that dies loses its
 *   place the same way. Waiters check their line every `pollMs` besides.
 * - Every grant carries a fencing token (one counter that only grows): `ctx.lock`.
 * - Memory is bounded by what is held or waited for: a key with no holder and no waiter leaves
 *   nothing in Redis (the counter is the one key that stays).
 * - When Redis is unreachable, `acquire` fails with a `LockUnavailableError` (the call becomes
 *   an error result; nothing runs); a holder that cannot renew is aborted, since its grant may
 *   have passed to another instance.
 */
export class RedisMutationLock implements MutationLock {
  private readonly prefix: string;
  private readonly channel: string;
  private readonly instance = randomUUID();
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly waiting = new Map<string, Waiting>();
  /** Who follows whom among this instance's acquisitions: a release hands the line to the follower at once. */
  private readonly followers = new LockFollowers();
  /** This instance's acquisitions that hold their lines now. */
  private readonly holders = new Set<string>();
  private subscribed: Promise<void> | undefined;
  /** Redis commands this instance sent (scripts, each one command), for measurement. */
  commands = 0;
  /** Acquisitions of this instance that have reached Redis (hold the lock or are in line), for tests and measurement. */
  placements = 0;
  /** Grants this instance handed to its own next-in-line on a release, without waiting for Redis (for tests and measurement). */
  handedOn = 0;

  /**
   * `options`: the key prefix (default `mcpfusion:mutation`), `leaseMs` (default 5,000) and
   * `pollMs` (default 500, at most a third of the lease). Throws a `ConfigurationError` when
   * `leaseMs` is not a positive whole number of milliseconds or `pollMs` not a positive number.
   */
  constructor(
    private readonly redis: RedisConnection,
    options: RedisMutationLockOptions = {}
  ) {
    // A hash tag keeps every key of the lock in one slot (Redis Cluster).
    this.prefix = `{${options.key ?? 'mcpfusion:mutation'}}`;
    this.channel = `${this.prefix}:i:${this.instance}`;
    // Whole: the lease is sent to Redis as a PX / PEXPIRE argument, which takes whole milliseconds only.
    this.leaseMs = duration(options.leaseMs, 5_000, 'RedisMutationLock: leaseMs', { whole: true });
    this.pollMs = Math.min(duration(options.pollMs, 500, 'RedisMutationLock: pollMs'), Math.max(1, Math.floor(this.leaseMs / 3)));
  }

  /** Whether this instance holds the lock (app-wide or any key) now. */
  get locked(): boolean {
    return this.holders.size > 0;
  }

  /** This instance's acquisitions in line now (placed in Redis, not yet granted). */
  get waiters(): number {
    let count = 0;
    for (const waiter of this.waiting.values()) if (waiter.line !== undefined) count++;
    return count;
  }

  /** Resolves with a release function when this caller holds the app exclusive, fleet-wide; see `MutationLock.acquire`. */
  acquire(signal: AbortSignal): Promise<LockRelease> {
    return this.take([['X', '']], signal);
  }

  /** Holds `keys` (sorted, without duplicates) and the app shared, fleet-wide; see `MutationLock.acquireKeys`. */
  acquireKeys(keys: readonly string[], signal: AbortSignal): Promise<LockRelease> {
    return this.take(linesOf(keys), signal);
  }

  /**
   * The engine's form (see `engine-slots.ts`): a holder whose lease is lost aborts its call.
   *
   * @internal
   */
  [TAKE](call: CallAbort): Promise<LockRelease> {
    return this.take([['X', '']], call.signal, (error) => call.abort(error));
  }

  /**
   * The engine's keyed form: a holder whose lease is lost aborts its call.
   *
   * @internal
   */
  [TAKE_KEYS](keys: readonly string[], call: CallAbort): Promise<LockRelease> {
    return this.take(linesOf(keys), call.signal, (error) => call.abort(error));
  }

  private async take(lines: readonly Line[], signal: AbortSignal, onLost?: (error: Error) => void): Promise<LockRelease> {
    if (signal.aborted) throw abortError(signal);
    const id = randomUUID();
    const waiter: Waiting = { line: undefined, granted: undefined, early: undefined, renewedAt: 0 };
    let onAbort: () => void = () => undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(abortError(signal));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    aborted.catch(() => undefined);
    // Every Redis round trip races the signal: a Redis that stops answering cannot hold a waiter.
    const step = <T>(command: Promise<T>): Promise<T> =>
      Promise.race([
        command.catch((error: unknown) => {
          throw new LockUnavailableError(error);
        }),
        aborted
      ]);
    const tokens: number[] = [];
    this.waiting.set(id, waiter);
    try {
      await step(this.subscribe());
      for (let from = 1; from <= lines.length;) {
        const sent = performance.now();
        const answer = (await step(this.script(ACQUIRE, [id, this.instance, String(from), ...lines.flat()]))) as number[];
        waiter.renewedAt = sent;
        if (from === 1) this.placements++;
        tokens.push(...answer.slice(3).map(Number));
        const at = Number(answer[0]);
        if (at === 0) break;
        // Waiting exclusively on its last line behind an acquisition of this instance: that one's release hands it on.
        const [mode, line] = lines[at - 1];
        const ahead = String(answer[2]);
        if (mode === 'X' && at === lines.length && (this.waiting.has(ahead) || this.holders.has(ahead))) {
          this.followers.set(ahead, line, { id, token: Number(answer[1]) });
        }
        const held = lines.slice(0, at - 1).map(([, line]) => line);
        tokens.push(await this.granted(id, waiter, lines[at - 1][1], held, step, aborted));
        from = at + 1;
      }
    } catch (error) {
      // Aborted (or Redis failed): leave every line at once, giving back what was held (a grant that
      // was on its way when the signal fired included); the next waiters are served now.
      void this.script(RELEASE, [id, '1', ...lines.map(([, line]) => line)]).catch(() => undefined);
      for (const [, line] of lines) this.followers.forget(id, line);
      throw error;
    } finally {
      this.waiting.delete(id);
      signal.removeEventListener('abort', onAbort);
    }
    return this.grant(id, lines, tokens, onLost);
  }

  /**
   * Waits in `line` until the grant message names this waiter, or its poll finds it holds the line;
   * each poll also renews the leases of the lines it `held` already (they would run out while it waits).
   */
  private async granted(
    id: string,
    waiter: Waiting,
    line: string,
    held: readonly string[],
    step: <T>(command: Promise<T>) => Promise<T>,
    aborted: Promise<never>
  ): Promise<number> {
    const early = waiter.early?.get(line);
    if (early !== undefined) return early;
    waiter.line = line;
    let grant!: (token: number) => void;
    const message = new Promise<number>((resolve) => (grant = resolve));
    waiter.granted = grant;
    try {
      for (;;) {
        // Until granted, the poll interval or the abort, whichever is first; the poll's timer ends with the wait.
        let timer: NodeJS.Timeout | undefined;
        const poll = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), this.pollMs)));
        try {
          const token = await Promise.race([message, poll, aborted]);
          if (token !== undefined) return token;
        } finally {
          clearTimeout(timer);
        }
        const sent = performance.now();
        const token = Number(await step(this.script(CHECK, [id, this.instance, line, ...held])));
        waiter.renewedAt = sent;
        if (token > 0) return token;
      }
    } finally {
      waiter.line = undefined;
      waiter.granted = undefined;
    }
  }

  /** A grant: its leases renewed until it is released; the release frees its lines and hands each on. */
  private grant(id: string, lines: readonly Line[], tokens: readonly number[], onLost?: (error: Error) => void): LockRelease {
    const names = lines.map(([, line]) => line);
    this.holders.add(id);
    let released = false;
    const renew = setInterval(
      () => {
        this.script(RENEW, [id, ...names])
          .then((lost) => {
            if (Number(lost) > 0 && !released) onLost?.(new Error('The mutation lock was lost (its lease ran out): the call was stopped.'));
          })
          .catch((error: unknown) => {
            if (!released) onLost?.(new LockUnavailableError(error));
          });
      },
      Math.max(1, Math.floor(this.leaseMs / 3))
    );
    renew.unref();
    const release = ((): Promise<void> | undefined => {
      if (released) return undefined;
      released = true;
      this.holders.delete(id);
      clearInterval(renew);
      // Sent first: whatever the waiters handed on below send next reaches Redis after it.
      void this.script(RELEASE, [id, '0', ...names]).catch(() => undefined);
      for (const [mode, line] of lines) {
        if (mode === 'X') this.handOn(id, line);
        else this.followers.forget(id, line);
      }
      // The next holder goes first: the release is written to Redis at this turn's end (a waiter of
      // another instance has its grant sooner), and a follower handed the line above runs its
      // critical section now. Both are the fleet's serialized path; what the releasing call has left
      // to do (send its answer) runs beside the next critical section, a turn later.
      return new Promise<void>((resolve) => setImmediate(resolve));
    }) as LockRelease & { fencingToken: number; keys: readonly KeyGrant[] };
    const keys = lines.slice(1).map(([, key], i) => ({ key, fencingToken: tokens[i + 1] }));
    release.keys = lines[0][0] === 'X' ? [] : keys;
    release.fencingToken = keys[0]?.fencingToken ?? tokens[0];
    return release;
  }

  /**
   * Hands `line`, which holder `id` of this instance has just released, to the waiter of this
   * instance Redis put right behind it: that waiter waits for this line as its last, and its place
   * in Redis is alive (renewed less than half a lease ago), so the release's hand-off in Redis
   * grants it next, with the token drawn for it ahead. It starts now instead of after the release's
   * round trip and the grant message; the message that follows finds it served.
   */
  private handOn(id: string, line: string): void {
    const next = this.followers.take(id, line);
    if (!next) return;
    const waiter = this.waiting.get(next.id);
    if (waiter?.line !== line || !waiter.granted || performance.now() - waiter.renewedAt >= this.leaseMs / 2) return;
    this.handedOn++;
    waiter.granted(next.token);
  }

  private script(script: string, args: readonly string[]): Promise<unknown> {
    this.commands++;
    return runScript(this.redis.client, script, [this.prefix], [String(this.leaseMs), ...args]);
  }

  /** One subscription per instance: a grant message (`parseGrant`) names the waiter, and the line's next head. */
  private subscribe(): Promise<void> {
    return (this.subscribed ??= this.redis
      .subscriber()
      .then((subscriber) =>
        subscriber.subscribe(this.channel, (message: string) => {
          const { line, id, token, next } = parseGrant(message);
          if (next && this.waiting.has(next.id) && (this.waiting.has(id) || this.holders.has(id))) this.followers.set(id, line, next);
          const waiter = this.waiting.get(id);
          if (waiter?.line === line) waiter.granted?.(token);
          else if (waiter) (waiter.early ??= new Map()).set(line, token);
        })
      )
      .catch((error: unknown) => {
        this.subscribed = undefined;
        throw error;
      }));
  }
}
