import type { IncomingMessage } from 'node:http';
import { FORWARDED_RESULT } from './upstream-result';

/** The wire helpers of a direct call (see direct-call.ts): a result's check, an envelope's, a body read for an error. */

type Json = Record<string, unknown>;

/** A 2025-era `tools/call` result: its shape checked (`FORWARDED_RESULT`), refused with the reason. */
export function legacyResult(result: unknown): { value: unknown } | Error {
  const checked = FORWARDED_RESULT['~standard'].validate(result);
  if ('issues' in checked && checked.issues) return new Error(checked.issues[0]?.message ?? 'malformed result');
  return { value: (checked as { value: unknown }).value };
}

/** What makes `value` no JSON-RPC message (the envelope only: what is inside is checked by whoever reads it). */
export function messageProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON-RPC message';
  const message = value as Json;
  if (message.jsonrpc !== '2.0') return 'not a JSON-RPC 2.0 message';
  const id = message.id;
  if (id !== undefined && typeof id !== 'string' && typeof id !== 'number') return 'a JSON-RPC message with a malformed id';
  if ('method' in message) {
    if (typeof message.method !== 'string') return 'a JSON-RPC message with a malformed method';
    if (message.params !== undefined && (typeof message.params !== 'object' || message.params === null))
      return 'a JSON-RPC message with malformed params';
    return undefined;
  }
  if (id === undefined) return 'a JSON-RPC response without an id';
  if ('result' in message)
    return typeof message.result === 'object' && message.result !== null ? undefined : 'a JSON-RPC response whose result is no object';
  return 'error' in message ? undefined : 'a JSON-RPC message that is neither a request, a notification nor a response';
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    return error as Error;
  }
}

/** The start of a body (at most `limit` bytes), to quote in an error; the rest is dropped. */
export function bodyText(incoming: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on('data', (chunk: Buffer) => {
      if (size < limit) chunks.push(chunk);
      size += chunk.length;
    });
    const done = (): void => resolve(Buffer.concat(chunks).toString('utf8').slice(0, limit));
    incoming.once('end', done);
    incoming.on('error', done);
    incoming.once('aborted', done);
  });
}
