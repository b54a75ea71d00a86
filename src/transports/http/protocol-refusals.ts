import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '@modelcontextprotocol/server';
import { PROTOTYPE_KEYS } from '../../wire/own-properties';
import { jsonRpcErrorResponse } from './json-rpc-response';

/**
 * Refusals the HTTP transport owes before any request reaches a server: what the protocol
 * forbids at the message level, whichever era. Each returns the response to send, or
 * `undefined` when the request may go on.
 */

/** The first protocol version without JSON-RPC batching (removed in 2025-06-18). */
export const NO_BATCH_SINCE = '2025-06-18';

/** Largest request body read: the SDK's own default, so both legs refuse the same bodies. */
export const MAX_BODY_BYTES = DEFAULT_MAX_REQUEST_BODY_SIZE;

/**
 * 406 when `Accept` admits neither `application/json` nor `text/event-stream` (wildcards and
 * `q=0` honoured). No `Accept` header means "anything" (RFC 9110), so it passes.
 */
export function acceptRefusal(request: Request): Response | undefined {
  const accept = request.headers.get('accept');
  if (accept === null || accept.trim() === '') return undefined;
  if (admits(accept, 'application', 'json') || admits(accept, 'text', 'event-stream')) return undefined;
  return jsonRpcErrorResponse(
    406,
    -32000,
    `Not Acceptable: Accept must admit application/json or text/event-stream (got ${accept.slice(0, 100)})`
  );
}

function admits(accept: string, type: string, subtype: string): boolean {
  // The common case: no parameters (so no q=0), the ranges compared as they are.
  if (!accept.includes(';')) {
    return accept.split(',').some((part) => {
      const range = part.trim().toLowerCase();
      return range === `${type}/${subtype}` || range === `${type}/*` || range === '*/*';
    });
  }
  let best: { specificity: number; q: number } | undefined;
  for (const part of accept.split(',')) {
    const [range, ...params] = part.trim().toLowerCase().split(';');
    const [t, s] = range.trim().split('/');
    const matches = (t === '*' && s === '*') || (t === type && (s === '*' || s === subtype));
    if (!matches) continue;
    const specificity = t === '*' ? 0 : s === '*' ? 1 : 2;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!best || specificity > best.specificity) best = { specificity, q: Number.isFinite(q) ? q : 0 };
  }
  return best !== undefined && best.q > 0;
}

/**
 * 400 / -32600 for a JSON-RPC batch on a connection at 2025-06-18 or later (batches were
 * removed then): none of it is executed. `version` is the session's negotiated version, or
 * the `MCP-Protocol-Version` header of a request without a session.
 */
export function batchRefusal(body: unknown, version: string | undefined): Response | undefined {
  if (!Array.isArray(body) || version === undefined || version < NO_BATCH_SINCE) return undefined;
  return jsonRpcErrorResponse(
    400,
    -32600,
    `Invalid Request: JSON-RPC batches are not allowed on protocol version ${version} (removed in ${NO_BATCH_SINCE}); send one message per request`
  );
}

/**
 * Drops the keys that could reach a prototype (`__proto__`, `constructor`, `prototype`) from
 * `params.inputResponses` of a parsed request, before the SDK copies that map onto a plain
 * object (where `__proto__` would become its prototype). The engine also reads answers by own
 * property only, so this is the first of two guards.
 */
export function stripPrototypeKeys(body: unknown): void {
  for (const message of Array.isArray(body) ? body : [body]) {
    const params = (message as { params?: unknown } | null)?.params as { inputResponses?: unknown } | undefined;
    const responses = params && typeof params === 'object' ? params.inputResponses : undefined;
    if (!responses || typeof responses !== 'object') continue;
    for (const key of PROTOTYPE_KEYS) {
      if (Object.prototype.hasOwnProperty.call(responses, key)) delete (responses as Record<string, unknown>)[key];
    }
  }
}

/**
 * 400 / -32602 for a `tools/call` or `prompts/get` whose `arguments` carry an own `__proto__`
 * key. The SDK's schema parse drops that key without a word (zod strips it), so the framework's
 * validator, which refuses it at any other depth, would never see it: the refusal happens here,
 * before anything runs. (`constructor` and `prototype` survive the parse and are refused by the
 * validator as invalid arguments.)
 */
export function prototypeArgumentRefusal(body: unknown): Response | undefined {
  if (Array.isArray(body)) return undefined; // batches are refused or pass message by message
  const message = body as { id?: unknown; method?: unknown; params?: { arguments?: unknown; name?: unknown } } | null;
  if (!message || (message.method !== 'tools/call' && message.method !== 'prompts/get')) return undefined;
  const args = message.params?.arguments;
  if (!args || typeof args !== 'object' || !Object.prototype.hasOwnProperty.call(args, '__proto__')) return undefined;
  const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
  return jsonRpcErrorResponse(
    400,
    -32602,
    `Invalid params: the arguments of ${String(message.params?.name)} contain the property name __proto__, which is not allowed`,
    id
  );
}
