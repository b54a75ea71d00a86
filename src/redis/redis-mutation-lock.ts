import { randomUUID } from 'node:crypto';
import type { CallAbort } from '../concurrency/call-abort';
import { abortError } from '../concurrency/abort';
import type { MutationLock } from '../concurrency/fifo-mutex';
import type { Release } from '../concurrency/slot-gate';
import { duration } from '../config/option-checks';
import { FusionError, ErrorCode } from '../errors';
import type { RedisConnection } from './redis-connection';

/** Options of {@link RedisMutationLock}. */
export interface RedisMutationLockOptions {
  /** The key prefix (one lock per prefix; every instance of a fleet uses the same). Default `mcpfusion:mutation`. */
  key?: string;
  /**
   * How long a grant (and a waiter's place in line) lives without being renewed, in whole ms: a holder
   * that dies (kill -9) frees the lock within this plus `pollMs`. Renewed every third of it. Default 5,000.
   */
  leaseMs?: number;
  /** How often a waiter checks the lock besides the release messages (a dead holder sends none). Default 500. */
  pollMs?: number;
}

/** The lock (Redis) could not be reached or answered; the call was not run. */
export class LockUnavailableError extends FusionError {
  constructor(cause: unknown) {
    super(
      ErrorCode.INTERNAL,
      `The mutation lock is unavailable (Redis: ${cause instanceof Error ? cause.message : String(cause)}); nothing was changed. Retry later.`,
      { cause }
    );
  }
}

// One script each, run atomically by Redis. KEYS: 1 queue (list of waiter ids), 2 holder
// ("<waiter>:<token>", with the lease as its expiry), 3 fence (counter), 4 waiter-key prefix.

/** Takes the lock for ARGV[1] if it heads the line and nobody holds it; waiters whose place expired are dropped first. */
const TRY_ACQUIRE = `
while true do
  local head = redis.call('LINDEX', KEYS[1], 0)
  if (not head) or head == ARGV[1] or redis.call('EXISTS', KEYS[4] .. head) == 1 then break end
  redis.call('LPOP', KEYS[1])
end
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if redis.call('LINDEX', KEYS[1], 0) ~= ARGV[1] then return 0 end
redis.call('LPOP', KEYS[1])
redis.call('DEL', KEYS[4] .. ARGV[1])
local token = redis.call('INCR', KEYS[3])
redis.call('SET', KEYS[2], ARGV[1] .. ':' .. token, 'PX', ARGV[2])
return token`;

/** Renews the lease of ARGV[1] (the holder value) if it still holds the lock. */
const RENEW = `
if redis.call('GET', KEYS[2]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
return 0`;

/** Frees the lock if ARGV[1] (the holder value) holds it, and tells the waiters. */
const RELEASE = `
if redis.call('GET', KEYS[2]) == ARGV[1] then
  redis.call('DEL', KEYS[2])
  redis.call('PUBLISH', ARGV[2], 'released')
  return 1
end
return 0`;

/** A waiter leaves the line (aborted), and the waiters are told (the head may have changed). */
const LEAVE = `
redis.call('LREM', KEYS[1], 0, ARGV[1])
redis.call('DEL', KEYS[4] .. ARGV[1])
redis.call('PUBLISH', ARGV[2], 'left')
return 1`;

interface Waiter {
  readonly id: string;
  wake(): void;
}

/**
 * The fleet-wide form of `FifoMutex`, on Redis: one line of waiters for every instance that
 * shares the key, served in arrival order. Built on Redis primitives with Lua scripts (a list
 * for the line, a key with an expiry for the grant, a counter for fencing tokens) rather than
 * redlock or redis-semaphore, which give neither FIFO order across processes nor a waiter that
 * leaves the line the moment it is aborted.
 *
 * - An aborted waiter leaves at once (`LREM`), and the others are told.
 * - The holder renews its lease while it runs; a holder that dies stops renewing and the lock is
 *   free when the lease runs out (`leaseMs`, default 5 s); a waiter that dies loses its place the
 *   same way. Waiters learn of releases through pub/sub and check every `pollMs` besides.
 * - Every grant carries a fencing token (a counter that only grows): `ctx.lock.fencingToken`,
 *   for writes that a stale holder must not make.
 * - When Redis is unreachable, `acquire` fails with a `LockUnavailableError` (the call becomes
 *   an error result; nothing runs); a holder that cannot renew is aborted, since its grant may
 *   have passed to another instance.
 */
export class RedisMutationLock implements MutationLock {
  private readonly queue: string;
  private readonly holder: string;
  private readonly fence: string;
  private readonly waiterPrefix: string;
  private readonly channel: string;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly waiters = new Set<Waiter>();
  private holding = 0;
  private subscribed: Promise<void> | undefined;

  constructor(
    private readonly redis: RedisConnection,
    options: RedisMutationLockOptions = {}
  ) {
    // A hash tag keeps every key of the lock in one slot (Redis Cluster).
    const prefix = `{${options.key ?? 'mcpfusion:mutation'}}`;
    this.queue = `${prefix}:queue`;
    this.holder = `${prefix}:holder`;
    this.fence = `${prefix}:fence`;
    this.waiterPrefix = `${prefix}:waiter:`;
    this.channel = `${prefix}:events`;
    // Whole: the lease is sent to Redis as a PX / PEXPIRE argument, which takes whole milliseconds only.
    this.leaseMs = duration(options.leaseMs, 5_000, 'RedisMutationLock: leaseMs', { whole: true });
    this.pollMs = duration(options.pollMs, 500, 'RedisMutationLock: pollMs');
  }

  /** Whether this instance holds the lock now. */
  get locked(): boolean {
    return this.holding > 0;
  }

  acquireFor(call: CallAbort): Promise<Release> {
    return this.acquireWith(call.signal, (error) => call.abort(error));
  }

  acquire(signal: AbortSignal): Promise<Release> {
    return this.acquireWith(signal);
  }

  private async acquireWith(signal: AbortSignal, onLost?: (error: Error) => void): Promise<Release> {
    if (signal.aborted) throw abortError(signal);
    const id = randomUUID();
    const keys = [this.queue, this.holder, this.fence, this.waiterPrefix];
    let wake!: () => void;
    let woken = new Promise<void>((resolve) => (wake = resolve));
    const waiter: Waiter = {
      id,
      wake: () => {
        wake();
        woken = new Promise<void>((resolve) => (wake = resolve));
      }
    };
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
    let attempt: Promise<unknown> | undefined;
    this.waiters.add(waiter);
    try {
      await step(this.subscribe());
      await step(this.redis.client.multi().set(`${this.waiterPrefix}${id}`, '1', { PX: this.leaseMs }).rPush(this.queue, id).exec());
      let lastRenew = Date.now();
      for (;;) {
        attempt = this.redis.client.eval(TRY_ACQUIRE, { keys, arguments: [id, String(this.leaseMs)] });
        const token = Number(await step(attempt));
        attempt = undefined;
        if (token > 0) return this.grant(id, token, onLost);
        if (Date.now() - lastRenew > this.leaseMs / 3) {
          lastRenew = Date.now();
          // Still waiting: keep the place in line alive.
          await step(this.redis.client.pExpire(`${this.waiterPrefix}${id}`, this.leaseMs)).catch((error: unknown) => {
            if (signal.aborted) throw error;
          });
        }
        // Until woken, the poll interval or the abort, whichever is first; the poll's timer ends with the wait
        // (a timer left behind per wake-up, each with a listener on the signal, piled up under contention).
        let timer: NodeJS.Timeout | undefined;
        const poll = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.pollMs)));
        try {
          await Promise.race([woken, poll, aborted]);
        } finally {
          clearTimeout(timer);
        }
      }
    } catch (error) {
      // Aborted (or Redis failed): leave the line at once, so the next waiter is served now; a grant
      // that was on its way when the signal fired is handed back.
      void this.redis.client.eval(LEAVE, { keys, arguments: [id, this.channel] }).catch(() => undefined);
      void attempt
        ?.then((token) => {
          if (Number(token) > 0) return this.redis.client.eval(RELEASE, { keys, arguments: [`${id}:${String(token)}`, this.channel] });
          return undefined;
        })
        .catch(() => undefined);
      throw error;
    } finally {
      this.waiters.delete(waiter);
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** A grant: its lease renewed until it is released; the release frees the lock and wakes the line. */
  private grant(id: string, token: number, onLost?: (error: Error) => void): Release {
    const value = `${id}:${token}`;
    const keys = [this.queue, this.holder, this.fence, this.waiterPrefix];
    this.holding++;
    let released = false;
    const renew = setInterval(
      () => {
        this.redis.client
          .eval(RENEW, { keys, arguments: [value, String(this.leaseMs)] })
          .then((kept) => {
            if (Number(kept) !== 1 && !released)
              onLost?.(new Error('The mutation lock was lost (its lease ran out): the call was stopped.'));
          })
          .catch((error: unknown) => {
            if (!released) onLost?.(new LockUnavailableError(error));
          });
      },
      Math.max(1, Math.floor(this.leaseMs / 3))
    );
    renew.unref();
    const release = (() => {
      if (released) return;
      released = true;
      this.holding--;
      clearInterval(renew);
      void this.redis.client.eval(RELEASE, { keys, arguments: [value, this.channel] }).catch(() => undefined);
    }) as Release & { fencingToken: number };
    release.fencingToken = token;
    return release;
  }

  /** One subscription per lock: every release or departure wakes this instance's waiters. */
  private subscribe(): Promise<void> {
    return (this.subscribed ??= this.redis
      .subscriber()
      .then((subscriber) =>
        subscriber.subscribe(this.channel, () => {
          for (const waiter of this.waiters) waiter.wake();
        })
      )
      .catch((error: unknown) => {
        this.subscribed = undefined;
        throw error;
      }));
  }
}
