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
  /**
   * How long a claim of an exactly-once round holds without its instance renewing it, in ms
   * (default 15,000; renewed every third of it while the attempt runs). A re-issue waiting for an
   * attempt whose instance is gone runs the round once the lease has lapsed.
   */
  claimLeaseMs?: number;
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
  /** The claims this instance holds: round id → the owner token written in the round's record. */
  private readonly owned = new Map<string, string>();
  readonly claimLeaseMs: number;

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
    this.claimLeaseMs = options.claimLeaseMs ?? 15_000;
    if (!Number.isSafeInteger(this.claimLeaseMs) || this.claimLeaseMs < 1)
      throw new TypeError(`RedisContinuationStore: claimLeaseMs must be a positive whole number (got ${String(options.claimLeaseMs)})`);
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
   * record (fingerprint, running, its owner and a lease); a re-issue on any instance reads it:
   * another fingerprint is refused, an outcome is returned, a running attempt is waited for
   * (polled, until `signal` aborts) until it records, gives back, or its lease lapses (its
   * instance is gone: the re-issue runs the round). The record lives as long as the state.
   */
  async claim(id: string, fingerprint: string, signal?: AbortSignal): Promise<ClaimOutcome> {
    const key = this.roundKey(id);
    const owner = randomBytes(12).toString('base64url');
    for (;;) {
      signal?.throwIfAborted();
      const stored = (await this.redis.client.eval(CLAIM_ROUND, {
        keys: [key],
        arguments: [fingerprint, owner, String(this.ttlMs), String(this.claimLeaseMs)]
      })) as string;
      if (stored === 'run') {
        this.owned.set(id, owner);
        return { kind: 'run' };
      }
      if (stored === 'refused') return { kind: 'refused' };
      const round = JSON.parse(stored) as { f: string; s: 'running' | 'done'; o?: unknown };
      if (round.s === 'done') return { kind: 'done', outcome: round.o };
      await delay(ROUND_POLL_MS, undefined, { signal });
    }
  }

  /** Records the outcome of a round this instance still owns (a lapsed claim taken over by another attempt records nothing). */
  async recordOutcome(id: string, outcome: unknown): Promise<void> {
    const owner = this.owned.get(id);
    this.owned.delete(id);
    if (owner === undefined) return;
    await this.redis.client.eval(RECORD_ROUND, { keys: [this.roundKey(id)], arguments: [owner, JSON.stringify(outcome ?? null)] });
  }

  /** A failed attempt gives the round back: free to run again with the same answers, never with others (the record keeps its fingerprint). */
  async releaseClaim(id: string): Promise<void> {
    const owner = this.owned.get(id);
    this.owned.delete(id);
    if (owner === undefined) return;
    await this.redis.client.eval(RELEASE_ROUND, { keys: [this.roundKey(id)], arguments: [owner] });
  }

  /** Renews the lease of a claim this instance owns (its attempt still runs). */
  async renewClaim(id: string): Promise<void> {
    const owner = this.owned.get(id);
    if (owner === undefined) return;
    await this.redis.client.eval(RENEW_ROUND, { keys: [this.roundKey(id)], arguments: [owner, String(this.claimLeaseMs)] });
  }

  private roundKey(id: string): string {
    return `${this.prefix}:round:${id}`;
  }

  bindingTag(value: string): Promise<string> {
    return Promise.resolve(createHmac('sha256', this.tagKey).update(value, 'utf8').digest('base64url'));
  }
}

/** Redis's own clock in ms (every instance reads the same one): leases need no synchronized clocks. */
const NOW_MS = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/**
 * Claims a round: `run` (no record, one given back with this fingerprint, or one whose running
 * attempt's lease lapsed), `refused` (another fingerprint), or the record.
 * ARGV: fingerprint, owner, state TTL (ms), lease (ms).
 */
const CLAIM_ROUND = `${NOW_MS}
local running = cjson.encode({ f = ARGV[1], s = 'running', w = ARGV[2], l = now + tonumber(ARGV[4]) })
local v = redis.call('GET', KEYS[1])
if not v then
  redis.call('SET', KEYS[1], running, 'PX', ARGV[3])
  return 'run'
end
local r = cjson.decode(v)
if r.f ~= ARGV[1] then return 'refused' end
if r.s == 'free' or (r.s == 'running' and tonumber(r.l) ~= nil and tonumber(r.l) < now) then
  redis.call('SET', KEYS[1], running, 'KEEPTTL')
  return 'run'
end
return v
`;

/** Records a running round's outcome, if ARGV[1] still owns it. ARGV: owner, outcome (JSON). */
const RECORD_ROUND = `
local v = redis.call('GET', KEYS[1])
if not v then return 0 end
local r = cjson.decode(v)
if r.s ~= 'running' or r.w ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], '{"f":' .. cjson.encode(r.f) .. ',"s":"done","o":' .. ARGV[2] .. '}', 'KEEPTTL')
return 1
`;

/** Gives a running round back, if ARGV[1] still owns it (its fingerprint stays). */
const RELEASE_ROUND = `
local v = redis.call('GET', KEYS[1])
if not v then return 0 end
local r = cjson.decode(v)
if r.s ~= 'running' or r.w ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], cjson.encode({ f = r.f, s = 'free' }), 'KEEPTTL')
return 1
`;

/** Extends the lease of a running round, if ARGV[1] still owns it. ARGV: owner, lease (ms). */
const RENEW_ROUND = `${NOW_MS}
local v = redis.call('GET', KEYS[1])
if not v then return 0 end
local r = cjson.decode(v)
if r.s ~= 'running' or r.w ~= ARGV[1] then return 0 end
r.l = now + tonumber(ARGV[2])
redis.call('SET', KEYS[1], cjson.encode(r), 'KEEPTTL')
return 1
`;
