import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '@modelcontextprotocol/server';
import { PROTOTYPE_KEYS } from '../../wire/own-properties';
import type { EntryHeaders } from './entry-request';

/**
 * Every refusal the HTTP transport answers before a call exists, whichever era: the response
 * each one sends (status, JSON-RPC code, message), built here and nowhere else in the transport.
 * The guards decide when to refuse; this module says how. Two refusals are the SDK's own and
 * are not rebuilt: a disallowed `Origin` (`originValidationResponse`, 403) and the bearer
 * challenges of the auth gate (401/403, `src/auth/http-auth.ts`). Functions named `…Refusal`
 * inspect a request and return the response to send, or `undefined` when it may go on.
 */

/** The first protocol version without JSON-RPC batching (removed in 2025-06-18). */
export const NO_BATCH_SINCE = '2025-06-18';

/** Largest request body read: the SDK's own default, so both legs refuse the same bodies. */
export const MAX_BODY_BYTES = DEFAULT_MAX_REQUEST_BODY_SIZE;

/** A JSON-RPC error answered at the HTTP layer (no request reached a server). */
export function jsonRpcErrorResponse(status: number, code: number, message: string, id: string | number | null = null): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }), {
    status,
    headers: { 'content-type': 'application/json' }
  });
}

/** 404: a path that is neither the endpoint nor (with auth) a metadata path. */
export const endpointNotFound = (path: string): Response => jsonRpcErrorResponse(404, -32000, `Not found: the MCP endpoint is ${path}`);

/** 400: a request whose authority cannot be parsed strictly (`authority.ts`), before any URL is built from it. */
export const badAuthority = (problem: string): Response => jsonRpcErrorResponse(400, -32000, `Bad Request: ${problem}`);

/** 403: a Host header that is not allowed (DNS rebinding). */
export const hostNotAllowed = (host: string): Response => jsonRpcErrorResponse(403, -32000, `Forbidden: Host ${host} is not allowed`);

/** 415: a POST whose content type is not JSON. */
export const unsupportedMediaType = (): Response =>
  jsonRpcErrorResponse(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');

/** 400 / -32700: a body that could not be read (the client went away mid-body, say). */
export const unreadableBody = (): Response => jsonRpcErrorResponse(400, -32700, 'Parse error: the request body could not be read');

/** 413: a body over {@link MAX_BODY_BYTES} (the Node entry also closes the connection). */
export const payloadTooLarge = (): Response =>
  jsonRpcErrorResponse(413, -32000, `Payload Too Large: the request body exceeds ${MAX_BODY_BYTES} bytes`);

/** 400 / -32700: a body that is not JSON. */
export const invalidJson = (): Response => jsonRpcErrorResponse(400, -32700, 'Parse error: the request body is not valid JSON');

/** 500 / -32603: the entry failed by itself (the error goes to `onerror`, not to the client). */
export const internalError = (): Response => jsonRpcErrorResponse(500, -32603, 'Internal server error');

/** 503: a request reaching 2025-era sessions after `close()`. */
export const shuttingDown = (): Response => jsonRpcErrorResponse(503, -32000, 'Server is shutting down');

/** 404 / -32001: an unknown, expired or deleted session, or another caller's (a session id is not a credential). */
export const sessionNotFound = (): Response => jsonRpcErrorResponse(404, -32001, 'Session not found: start a new session with initialize');

/** 409: a resuming GET for a stream another connection carries now (the SDK's transport answers the same). */
export const streamInUse = (): Response => jsonRpcErrorResponse(409, -32000, 'Conflict: Stream already has an active connection');

/** 400: a 2025-era request without a session that is not an initialize. */
export const sessionRequired = (): Response =>
  jsonRpcErrorResponse(400, -32000, 'Bad Request: Mcp-Session-Id header required (send initialize first)');

/** 429: a new session beyond one caller's quota (`sessions.maxSessionsPerCaller`). */
export const tooManySessionsForCaller = (max: number): Response =>
  jsonRpcErrorResponse(
    429,
    -32000,
    `Too many sessions for this caller: ${max} are open (sessions.maxSessionsPerCaller). Close one (DELETE) or let one expire, then retry.`
  );

/** 503: a new session beyond `maxSessions`. */
export const tooManySessions = (max: number): Response => jsonRpcErrorResponse(503, -32000, `Too many open sessions (${max}); retry later`);

/** 405: a 2025-era GET or DELETE in JSON mode, which has no sessions and no streams. */
export const statelessMethodNotAllowed = (): Response =>
  jsonRpcErrorResponse(405, -32000, 'Method not allowed: this endpoint is stateless (JSON mode)');

/**
 * 406 when `Accept` admits neither `application/json` nor `text/event-stream` (wildcards and
 * `q=0` honoured). No `Accept` header means "anything" (RFC 9110), so it passes.
 */
export function acceptRefusal(request: { readonly headers: EntryHeaders }): Response | undefined {
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
 * property only, so this is the first of two guards. (Not a refusal: the companion of
 * {@link prototypeArgumentRefusal}, which refuses what cannot be dropped silently.)
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

/** The longest request id or progress token accepted: the server repeats them (in the answer, in every progress notification). */
export const MAX_ECHOED_CHARS = 256;

/** The largest `_meta` of a request accepted, serialized (the 2026-07-28 envelope and its client capabilities fit many times). */
export const MAX_META_BYTES = 64 * 1024;

/**
 * 400 / -32602 for a request carrying something the server would echo back, or keep, beyond a
 * bound: an id or a `_meta.progressToken` over {@link MAX_ECHOED_CHARS} characters (a 3 MB
 * token was repeated in every progress notification), or a `_meta` over {@link MAX_META_BYTES}.
 * Nothing of it runs; an oversized id is not echoed (the answer's id is null).
 */
export function echoRefusal(body: unknown, bodyBytes = Infinity): Response | undefined {
  for (const message of Array.isArray(body) ? body : [body]) {
    if (!message || typeof message !== 'object') continue;
    const { id, params } = message as { id?: unknown; params?: unknown };
    if (typeof id === 'string' && id.length > MAX_ECHOED_CHARS) {
      return jsonRpcErrorResponse(
        400,
        -32602,
        `Invalid params: the request id is ${id.length} characters long; at most ${MAX_ECHOED_CHARS} are accepted`
      );
    }
    const echo = typeof id === 'string' || typeof id === 'number' ? id : null;
    const meta = params && typeof params === 'object' ? (params as { _meta?: unknown })._meta : undefined;
    if (!meta || typeof meta !== 'object') continue;
    const token = (meta as { progressToken?: unknown }).progressToken;
    if (typeof token === 'string' && token.length > MAX_ECHOED_CHARS) {
      return jsonRpcErrorResponse(
        400,
        -32602,
        `Invalid params: _meta.progressToken is ${token.length} characters long; at most ${MAX_ECHOED_CHARS} are accepted`,
        echo
      );
    }
    // A body no larger than the bound cannot hold a `_meta` over it: measured only when it could.
    const size = bodyBytes > MAX_META_BYTES ? Buffer.byteLength(JSON.stringify(meta), 'utf8') : 0;
    if (size > MAX_META_BYTES) {
      return jsonRpcErrorResponse(400, -32602, `Invalid params: _meta is ${size} bytes; at most ${MAX_META_BYTES} are accepted`, echo);
    }
  }
  return undefined;
}
