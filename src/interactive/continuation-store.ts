import { randomBytes } from 'node:crypto';
import { createRequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { ConfigurationError } from '../errors';
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
}

// The SDK codec takes the handler context only for its optional `bind`, which this store
// does not use: the framework binds the payload to tool, arguments and caller itself.
const NO_CONTEXT = undefined as unknown as ServerContext;

/**
 * The default store: the SDK's HMAC-SHA256 request-state codec, with a TTL. Used single-use
 * states are remembered in this process until they expire (one instance; a fleet shares a store).
 */
export class SignedContinuationStore implements ContinuationStore {
  private readonly codec;
  private readonly used: UsedStates;

  constructor(key: Uint8Array | string, ttlSeconds: number) {
    this.codec = createRequestStateCodec<unknown>({ key, ttlSeconds });
    this.used = new UsedStates(ttlSeconds * 1000);
  }

  consume(id: string): Promise<boolean> {
    return Promise.resolve(this.used.consume(id));
  }

  seal(payload: unknown): Promise<string> {
    return this.codec.mint(payload, NO_CONTEXT);
  }

  open(token: string): Promise<unknown> {
    return this.codec.verify(token, NO_CONTEXT);
  }
}

let warnedAboutStateKey = false;

/**
 * The state key: the app option, else `FUSION_STATE_KEY`, else a random per-process key
 * (with a warning, once per process: several instances must share one key).
 */
export function resolveStateKey(option: string | Uint8Array | undefined, warn: (message: string) => void): Uint8Array | string {
  const key = option ?? process.env.FUSION_STATE_KEY;
  if (key === undefined || key === '') {
    if (!warnedAboutStateKey) {
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
