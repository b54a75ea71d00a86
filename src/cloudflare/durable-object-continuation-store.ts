import { randomUUID } from 'node:crypto';
import { SignedContinuationStore, type ContinuationStore } from '../interactive/continuation-store';
import type { ClaimOutcome } from '../interactive/round-outcomes';
import { abortableWait } from './abortable-wait';
import type { DurableObjectNamespaceLike } from './cloudflare-types';
import { ConfigurationError } from '../errors';
import { StateObjectClient } from './state-object-client';
import type { StoredClaim } from './state-operations';

/** How often a re-issue asks whether the attempt running its round (on any isolate) has ended (ms). */
const ROUND_POLL_MS = 25;

/** Options of {@link DurableObjectContinuationStore}. */
export interface DurableObjectContinuationStoreOptions {
  /** The key (at least 32 bytes) states are signed with: the same on every isolate (a secret binding, `STATE_KEY`). */
  key: string | Uint8Array;
  /** How long a state stays valid, in seconds. Default 600. */
  ttlSeconds?: number;
  /** The name of the object instance (one per app, or per environment sharing a namespace). Default `mcpfusion`. */
  name?: string;
  /**
   * How long a claim of an exactly-once round holds without its isolate renewing it, in ms
   * (default 15,000; renewed every third of it while the attempt runs). A re-issue waiting for
   * an attempt whose isolate is gone runs the round once the lease has lapsed.
   */
  claimLeaseMs?: number;
}

/**
 * Continuation state for Cloudflare Workers: the state travels signed in the request, as with
 * the default store (`SignedContinuationStore`: HMAC-SHA256, a TTL, the caller bound by a tag),
 * and what must be shared between isolates lives in a `FusionStateObject`: the single-use states
 * used (`consume`), and the exactly-once rounds (`claim`, `recordOutcome`, `releaseClaim`, with
 * a lease renewed while the attempt runs). Every one of those is one request to the object,
 * atomic there, so a confirmation replayed on another isolate is refused and a re-issued
 * exactly-once round gets the first attempt's outcome, wherever it lands.
 *
 * @example
 * ```ts
 * const continuationStore = new DurableObjectContinuationStore(env.STATE, { key: env.STATE_KEY });
 * FusionApp.create({ tools, continuationStore });
 * ```
 */
export class DurableObjectContinuationStore implements ContinuationStore {
  private readonly signed: SignedContinuationStore;
  private readonly object: StateObjectClient;
  private readonly ttlMs: number;
  /** The claims this isolate holds: round id → the owner token the object knows the attempt by. */
  private readonly owned = new Map<string, string>();
  readonly claimLeaseMs: number;

  /** `namespace`: the Worker's binding to `FusionStateObject` (`env.STATE`). Throws a `RangeError` when the key is shorter than 32 bytes. */
  constructor(namespace: DurableObjectNamespaceLike, options: DurableObjectContinuationStoreOptions) {
    const ttlSeconds = options.ttlSeconds ?? 600;
    this.signed = new SignedContinuationStore(options.key, ttlSeconds);
    this.object = new StateObjectClient(namespace, options.name ?? 'mcpfusion');
    this.ttlMs = Math.round(ttlSeconds * 1000);
    this.claimLeaseMs = options.claimLeaseMs ?? 15_000;
    if (!Number.isSafeInteger(this.claimLeaseMs) || this.claimLeaseMs < 1)
      throw new ConfigurationError(
        `DurableObjectContinuationStore: claimLeaseMs must be a positive whole number (got ${String(options.claimLeaseMs)})`
      );
  }

  seal(payload: unknown): Promise<string> {
    return this.signed.seal(payload);
  }

  open(token: string): Promise<unknown> {
    return this.signed.open(token);
  }

  bindingTag(value: string): Promise<string> {
    return this.signed.bindingTag(value);
  }

  consume(id: string): Promise<boolean> {
    return this.object.send<boolean>({ op: 'consume', id, ttlMs: this.ttlMs });
  }

  /**
   * The first attempt of a round claims it in the object; a re-issue on any isolate finds the
   * outcome, is refused (other answers), or waits (asking again every 25 ms, until `signal`
   * aborts) for the attempt that runs it to record, give back, or let its lease lapse.
   */
  async claim(id: string, fingerprint: string, signal?: AbortSignal): Promise<ClaimOutcome> {
    const owner = randomUUID();
    for (;;) {
      signal?.throwIfAborted();
      const claimed = await this.object.send<StoredClaim>({
        op: 'claim',
        id,
        fingerprint,
        owner,
        ttlMs: this.ttlMs,
        leaseMs: this.claimLeaseMs
      });
      if (claimed.kind === 'run') {
        this.owned.set(id, owner);
        return { kind: 'run' };
      }
      if (claimed.kind === 'refused') return { kind: 'refused' };
      if (claimed.kind === 'done') return { kind: 'done', outcome: JSON.parse(claimed.outcome) as unknown };
      await abortableWait(ROUND_POLL_MS, signal);
    }
  }

  /** Records the outcome of a round this isolate still holds (a claim that lapsed and was taken over records nothing). */
  async recordOutcome(id: string, outcome: unknown): Promise<void> {
    const owner = this.owned.get(id);
    this.owned.delete(id);
    if (owner === undefined) return;
    await this.object.send({ op: 'record', id, owner, outcome: JSON.stringify(outcome ?? null) });
  }

  /** Gives a round back: free to run again with the same answers, never with others (its fingerprint stays). */
  async releaseClaim(id: string): Promise<void> {
    const owner = this.owned.get(id);
    this.owned.delete(id);
    if (owner === undefined) return;
    await this.object.send({ op: 'release', id, owner });
  }

  /** Renews the lease of a claim this isolate holds (its attempt still runs). */
  async renewClaim(id: string): Promise<void> {
    const owner = this.owned.get(id);
    if (owner === undefined) return;
    await this.object.send({ op: 'renew', id, owner, leaseMs: this.claimLeaseMs });
  }
}
