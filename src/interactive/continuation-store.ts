import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { ServerContext } from '@modelcontextprotocol/server';
import { serverSdk } from '../wire/server-sdk';
import { ConfigurationError } from '../errors';
import { RoundOutcomes, type ClaimOutcome } from './round-outcomes';

import { UsedStates } from './used-states';

/**
 * Seals and opens the continuation state of interactive calls. The default keeps the
 * state in the token itself, signed; a multi-instance deployment may keep it in a
 * shared store and hand out an opaque id instead.
 */
export interface ContinuationStore {
  /** Seals a payload into the opaque `requestState` string the client echoes. */
  seal(payload: unknown): Promise<string>;
  /** Opens an echoed string; throws (any error) when it is tampered, expired or unknown. */
  open(token: string): Promise<unknown>;
  /**
   * Marks the id of a single-use state as used; resolves `false` when it was used before (a
   * replay). Members declared `@Interactive({ singleUseState: true })` need it: an app whose
   * store lacks it refuses to start. Several instances must share what it remembers.
   */
  consume?(id: string): Promise<boolean>;
  /**
   * Exactly-once rounds (`@Interactive({ exactlyOnce: true })`): claims the single-use state
   * `id` for the round whose `fingerprint` (tool, arguments, answers, caller) is given. `run`:
   * this attempt runs the handler (first, or the last attempt ended without an outcome);
   * `done`: the round has an outcome, returned without running anything; `refused`: the state
   * was used by a different round (other answers), as a replay is. While another attempt of the
   * same round runs, it waits for it (on any instance sharing the store), until `signal` aborts.
   * With `recordOutcome` and `releaseClaim`, all three or none.
   */
  claim?(id: string, fingerprint: string, signal?: AbortSignal): Promise<ClaimOutcome>;
  /** Records the outcome of a claimed round (the answer its client would have received), kept until the state expires. */
  recordOutcome?(id: string, outcome: unknown): Promise<void>;
  /** Gives a claim back: its attempt ended without an outcome (aborted, or failed before it finished). */
  releaseClaim?(id: string): Promise<void>;
  /**
   * A store shared by several instances: how long a claim holds without being renewed, in ms.
   * The attempt that owns a claim renews it (`renewClaim`) every third of this while it runs, so
   * a re-issue waiting for an attempt whose instance is gone runs the round once the lease lapses.
   * Absent: claims hold until recorded or given back (one process: its attempts end with it).
   */
  readonly claimLeaseMs?: number;
  /** Renews the lease of a claim this instance owns (with `claimLeaseMs`). */
  renewClaim?(id: string): Promise<void>;
  /**
   * A keyed digest (for example HMAC-SHA256) of a value the state is bound to: the caller's
   * identity (`principalOf`). The payload then carries the digest, and the identity never
   * travels in the state. It must be deterministic and the same on every instance that can
   * open the state. A store without it is given the caller in clear in the payload: implement
   * it whenever the payload can reach the client (a token that carries it).
   */
  bindingTag?(value: string): Promise<string>;
}

// The SDK codec takes the handler context only for its optional `bind`, which this store
// does not use: the framework binds the payload to tool, arguments and caller itself (the
// caller through `bindingTag`), so that the check holds for every store, not only this one.
const NO_CONTEXT = undefined as unknown as ServerContext;

/** Domain separation: the digest key is derived from the state key, never the signing key itself. */
const BINDING_KEY_INFO = 'mcpfusion requestState binding tag v1';

/**
 * The default store: the SDK's HMAC-SHA256 request-state codec, with a TTL. Used single-use
 * states are remembered in this process until they expire (one instance; a fleet shares a store).
 * The caller is bound by an HMAC-SHA256 tag under a key derived (HKDF-SHA256) from the state
 * key, so every instance sharing the key computes the same tag and no token shows who it was for.
 */
export class SignedContinuationStore implements ContinuationStore {
  /** The SDK codec, made on the first seal or open (an app that never asks never loads the SDK for it). */
  private codec: ReturnType<typeof import('@modelcontextprotocol/server').createRequestStateCodec<unknown>> | undefined;
  private readonly used: UsedStates;
  private readonly rounds: RoundOutcomes;
  private readonly tagKey: Buffer;

  /** `key`: the HMAC key, at least 32 bytes (a `RangeError` otherwise); `ttlSeconds`: how long a state stays valid. */
  constructor(
    private readonly key: Uint8Array | string,
    private readonly ttlSeconds: number
  ) {
    // What the SDK codec checks when it is made, checked now: a bad key fails at startup, not on a first round.
    const size = typeof key === 'string' ? new TextEncoder().encode(key).byteLength : key.byteLength;
    if (size < 32) throw new RangeError(`createRequestStateCodec: key must be at least 32 bytes (got ${size})`);
    if (!Number.isFinite(ttlSeconds)) throw new RangeError('createRequestStateCodec: ttlSeconds must be a finite number');
    this.used = new UsedStates(ttlSeconds * 1000);
    this.rounds = new RoundOutcomes(ttlSeconds * 1000);
    const material = typeof key === 'string' ? Buffer.from(key, 'utf8') : key;
    this.tagKey = Buffer.from(hkdfSync('sha256', material, new Uint8Array(0), BINDING_KEY_INFO, 32));
  }

  bindingTag(value: string): Promise<string> {
    return Promise.resolve(createHmac('sha256', this.tagKey).update(value, 'utf8').digest('base64url'));
  }

  consume(id: string): Promise<boolean> {
    return Promise.resolve(this.used.consume(id));
  }

  claim(id: string, fingerprint: string, signal?: AbortSignal): Promise<ClaimOutcome> {
    return this.rounds.claim(id, fingerprint, signal);
  }

  recordOutcome(id: string, outcome: unknown): Promise<void> {
    this.rounds.recordOutcome(id, outcome);
    return Promise.resolve();
  }

  releaseClaim(id: string): Promise<void> {
    this.rounds.releaseClaim(id);
    return Promise.resolve();
  }

  seal(payload: unknown): Promise<string> {
    return this.sdkCodec().mint(payload, NO_CONTEXT);
  }

  open(token: string): Promise<unknown> {
    return this.sdkCodec().verify(token, NO_CONTEXT);
  }

  private sdkCodec(): NonNullable<typeof this.codec> {
    return (this.codec ??= serverSdk().createRequestStateCodec<unknown>({ key: this.key, ttlSeconds: this.ttlSeconds }));
  }
}

let warnedAboutStateKey = false;

/**
 * The state key: the app option, else `FUSION_STATE_KEY`, else a random per-process key (with
 * a warning through `warn`, once per process, when given: an app that shares its work with
 * other instances must share one key with them).
 */
export function resolveStateKey(
  option: string | Uint8Array | undefined,
  warn: ((message: string) => void) | undefined
): Uint8Array | string {
  const key = option ?? process.env.FUSION_STATE_KEY;
  if (key === undefined || key === '') {
    if (warn && !warnedAboutStateKey) {
      warnedAboutStateKey = true;
      warn(
        'No state key (stateKey option or FUSION_STATE_KEY): interactive calls use a random per-process key. ' +
          'Several instances behind one endpoint must share a key of at least 32 bytes.'
      );
    }
    return randomBytes(32);
  }
  const length = typeof key === 'string' ? Buffer.byteLength(key, 'utf8') : key.byteLength;
  if (length < 32)
    throw new ConfigurationError(`The state key (stateKey or FUSION_STATE_KEY) must be at least 32 bytes; it has ${length}.`);
  return key;
}
