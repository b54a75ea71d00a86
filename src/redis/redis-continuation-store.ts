import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { ContinuationStore } from '../interactive/continuation-store';
import type { ClaimOutcome } from '../interactive/round-outcomes';
import type { RedisConnection } from './redis-connection';

/** How often a re-issue looks at a round whose first attempt still runs on another instance (ms). */
const ROUND_POLL_MS = 25;

/** Options of {@link RedisContinuationStore}. */
export interface RedisContinuationStoreOptions {
  /** The key (at least 32 bytes) the caller binding tags are made with; every instance uses the same. */
  key: string | Uint8Array;
  /** How long a state stays valid, in seconds. Default 600. */
  ttlSeconds?: number;
  /** Key prefix. Default `mcpfusion:state`. */
  prefix?: string;
}

/**
 * Continuation state in Redis, for several instances: the client holds only an opaque random
 * id (the state itself never leaves the server), a state expires after its TTL, and a
 * single-use state is consumed atomically (`SET NX`), so a confirmation replayed on another
 * instance is refused there too. When Redis is unreachable, sealing or opening fails and the
 * call gets an error (nothing is run on a state that cannot be read).
 */
export class RedisContinuationStore implements ContinuationStore {
  private readonly ttlMs: number;
  private readonly prefix: string;
  private readonly tagKey: Buffer;

  /** Throws a `TypeError` when `options.key` is shorter than 32 bytes. Keys are `{prefix}:…` (a hash tag: one Redis Cluster slot). */
  constructor(
    private readonly redis: RedisConnection,
    options: RedisContinuationStoreOptions
  ) {
    const material = typeof options.key === 'string' ? Buffer.from(options.key, 'utf8') : Buffer.from(options.key);
    if (material.length < 32) throw new TypeError('RedisContinuationStore: key must be at least 32 bytes');
    this.tagKey = Buffer.from(hkdfSync('sha256', material, new Uint8Array(0), 'mcpfusion redis continuation binding v1', 32));
    this.ttlMs = Math.round((options.ttlSeconds ?? 600) * 1000);
    this.prefix = `{${options.prefix ?? 'mcpfusion:state'}}`;
  }

  async seal(payload: unknown): Promise<string> {
    const id = randomBytes(24).toString('base64url');
    await this.redis.client.set(`${this.prefix}:s:${id}`, JSON.stringify(payload), { PX: this.ttlMs });
    return `r1.${id}`;
  }

  async open(token: string): Promise<unknown> {
    const match = /^r1\.([A-Za-z0-9_-]{32})$/.exec(token);
    if (!match) throw new Error('not a state of this store');
    const stored = await this.redis.client.get(`${this.prefix}:s:${match[1]}`);
    if (stored === null) throw new Error('unknown or expired');
    return JSON.parse(stored) as unknown;
  }

  async consume(id: string): Promise<boolean> {
    const set = await this.redis.client.set(`${this.prefix}:used:${id}`, '1', { NX: true, PX: this.ttlMs });
    return set === 'OK';
  }

  /**
   * Exactly-once rounds across instances: the first attempt's claim is a `SET NX` of the round's
   * record (fingerprint, running); a re-issue on any instance reads it: another fingerprint is
   * refused, an outcome is returned, a running attempt is waited for (polled, until `signal`
   * aborts). The record lives as long as the state.
   */
  async claim(id: string, fingerprint: string, signal?: AbortSignal): Promise<ClaimOutcome> {
    const key = `${this.prefix}:round:${id}`;
    const running = JSON.stringify({ f: fingerprint, s: 'running' });
    for (;;) {
      signal?.throwIfAborted();
      // Claimed when there is no record, or when a failed attempt gave the same round back (one script: atomic).
      const stored = (await this.redis.client.eval(CLAIM_ROUND, { keys: [key], arguments: [running, fingerprint, String(this.ttlMs)] })) as string;
      if (stored === 'run') return { kind: 'run' };
      if (stored === 'refused') return { kind: 'refused' };
      const round = JSON.parse(stored) as { f: string; s: 'running' | 'done'; o?: unknown };
      if (round.s === 'done') return { kind: 'done', outcome: round.o };
      await delay(ROUND_POLL_MS, undefined, { signal });
    }
  }

  async recordOutcome(id: string, outcome: unknown): Promise<void> {
    const key = `${this.prefix}:round:${id}`;
    const stored = await this.redis.client.get(key);
    if (stored === null) return;
    const round = JSON.parse(stored) as { f: string };
    await this.redis.client.set(key, JSON.stringify({ f: round.f, s: 'done', o: outcome }), { XX: true, KEEPTTL: true });
  }

  /** A failed attempt gives the round back: free to run again with the same answers, never with others (the record keeps its fingerprint). */
  async releaseClaim(id: string): Promise<void> {
    await this.redis.client.eval(RELEASE_ROUND, { keys: [`${this.prefix}:round:${id}`], arguments: [] });
  }

  bindingTag(value: string): Promise<string> {
    return Promise.resolve(createHmac('sha256', this.tagKey).update(value, 'utf8').digest('base64url'));
  }
}

/** Claims a round: `run` (no record, or one given back with this fingerprint), `refused` (another fingerprint), or the record. */
const CLAIM_ROUND = `
local v = redis.call('GET', KEYS[1])
if not v then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
  return 'run'
end
local r = cjson.decode(v)
if r.f ~= ARGV[2] then return 'refused' end
if r.s == 'free' then
  redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')
  return 'run'
end
return v
`;

/** Gives a running round back (its fingerprint stays). */
const RELEASE_ROUND = `
local v = redis.call('GET', KEYS[1])
if not v then return 0 end
local r = cjson.decode(v)
if r.s ~= 'running' then return 0 end
redis.call('SET', KEYS[1], cjson.encode({ f = r.f, s = 'free' }), 'KEEPTTL')
return 1
`;
