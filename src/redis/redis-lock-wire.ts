import { createHash } from 'node:crypto';
import type { RedisClientType } from 'redis';
import { ACQUIRE, CHECK, RELEASE, RENEW } from './redis-lock-scripts';

/**
 * Each script's SHA-1, sent with EVALSHA (40 bytes instead of the script's few kB, which Redis
 * would hash again on every call); a Redis that lacks it (restarted, SCRIPT FLUSH) gets the
 * script once with EVAL, which caches it there.
 */
const SHA1 = new Map([ACQUIRE, CHECK, RELEASE, RENEW].map((script) => [script, createHash('sha1').update(script).digest('hex')]));

/** One line an acquisition takes: the app line (`''`) shared or exclusive, or a key's line (exclusive). */
export type Line = readonly [mode: 'S' | 'X', line: string];

/** The lines a keyed acquisition takes, in order: the app shared, then each key (sorted by the caller). */
export function linesOf(keys: readonly string[]): Line[] {
  return [['S', ''], ...keys.map((key): Line => ['X', key])];
}

/** Runs one of the lock's scripts (`redis-lock-scripts.ts`) with its keys and arguments: one command. */
export function runScript(client: RedisClientType, script: string, keys: string[], args: string[]): Promise<unknown> {
  const options = { keys, arguments: args };
  return client.evalSha(SHA1.get(script)!, options).catch((error: unknown) => {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return client.eval(script, options);
  });
}

/** A grant message of the lock, as `handoff` in `redis-lock-scripts.ts` publishes it. */
export interface GrantMessage {
  /** The line granted (`''` for the app line, else the key). */
  readonly line: string;
  /** The waiter granted, and its fencing token. */
  readonly id: string;
  readonly token: number;
  /** For an exclusive grant, the line's next head and the token drawn for it ahead; else undefined. */
  readonly next: { readonly id: string; readonly token: number } | undefined;
}

/**
 * Reads `<line>|<id>|<token>|<next id>|<next token>` (`||0` when there is no next head). From
 * the end: a key may hold `|`; the ids and tokens do not.
 */
export function parseGrant(message: string): GrantMessage {
  const nextTokenAt = message.lastIndexOf('|');
  const nextAt = message.lastIndexOf('|', nextTokenAt - 1);
  const tokenAt = message.lastIndexOf('|', nextAt - 1);
  const idAt = message.lastIndexOf('|', tokenAt - 1);
  const next = message.slice(nextAt + 1, nextTokenAt);
  return {
    line: message.slice(0, idAt),
    id: message.slice(idAt + 1, tokenAt),
    token: Number(message.slice(tokenAt + 1, nextAt)),
    next: next ? { id: next, token: Number(message.slice(nextTokenAt + 1)) } : undefined
  };
}

/** An acquisition of this instance waiting in a line: woken by the grant message naming it, or by its poll. */
export interface Waiting {
  line: string | undefined;
  granted: ((token: number) => void) | undefined;
  /**
   * Grants whose message came before the reply of the script that joined the line (the message and
   * the reply travel on two connections): taken when the wait begins, so it does not wait for a poll.
   */
  early: Map<string, number> | undefined;
  /**
   * When the last script that kept its place alive in Redis (the acquire, a poll) was sent
   * (performance.now()): its place lives at least a lease from then.
   */
  renewedAt: number;
}
