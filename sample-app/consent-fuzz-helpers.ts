/**
 * A raw 2026-07-28 JSON-RPC client for the consent fuzzer (`consent.fuzz.test.ts`): it posts
 * the exact bytes a test builds (so keys such as `__proto__` travel as own properties, the way a
 * hostile client sends them), reads JSON or SSE replies, and classifies them. No SDK client
 * sits in between: nothing normalises what is sent.
 */

/** The protocol revision every request of the fuzzer speaks. */
export const MODERN = '2026-07-28';

/** How long one request may take before the fuzzer calls it a hang. */
export const REQUEST_TIMEOUT_MS = 5_000;

/** One embedded request for input, as the wire carries it. */
export interface WireInputRequest {
  readonly method: string;
  readonly params: {
    readonly mode?: string;
    readonly message: string;
    readonly requestedSchema?: { readonly properties?: Record<string, unknown>; readonly required?: readonly string[] };
  };
}

/** A reply, classified. `raw` is the response body as received; `status` the HTTP status. */
export type WireOutcome = { readonly status: number; readonly raw: string } & (
  | {
      readonly kind: 'input_required';
      readonly inputRequests: Readonly<Record<string, WireInputRequest>>;
      readonly requestState: string | undefined;
    }
  | {
      readonly kind: 'complete';
      readonly isError: boolean;
      readonly text: string;
      readonly structuredContent: unknown;
    }
  | { readonly kind: 'error'; readonly code: number; readonly message: string; readonly data: unknown }
);

/** What a `tools/call` sends. `inputResponses` and `requestState` go as given (any JSON value), or not at all when undefined. */
export interface WireCall {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly inputResponses?: unknown;
  readonly requestState?: unknown;
}

/** Traces of a stack or of the server's files in something sent to a client. */
const LEAKS: readonly RegExp[] = [
  /(?:^|\n|\\n)\s*at\s+\S+.*:\d+:\d+/, // a stack frame, raw or JSON-escaped
  /node_modules/,
  /\/work\/|\/tmp\/|[A-Za-z]:\\\\/, // absolute paths of the server
  /\.(?:ts|js|mjs|cjs):\d+/ // file:line
];

/** Messages of a JavaScript error that escaped a handler (a crash, not a decision). */
const CRASHES =
  /Cannot read propert|Cannot set propert|is not a function|is not iterable|is not defined|Maximum call stack|Unexpected token|\b(?:TypeError|ReferenceError|RangeError|SyntaxError)\b/;

/** Why a reply looks like a leak or a crash, else `undefined`. */
export function leakIn(raw: string): string | undefined {
  for (const pattern of LEAKS) if (pattern.test(raw)) return `leaks ${pattern}`;
  if (CRASHES.test(raw)) return `reads like a crash (${CRASHES.exec(raw)?.[0]})`;
  return undefined;
}

/** A raw JSON-RPC client of one server. Every request gets a new id. */
export class WireClient {
  private nextId = 1;
  /** Every reply received, for the end-of-run checks. */
  readonly replies: WireOutcome[] = [];

  constructor(
    readonly url: URL,
    private readonly timeoutMs = REQUEST_TIMEOUT_MS
  ) {}

  /** The `_meta` envelope of a 2026-07-28 request from a client that can answer forms. */
  static envelope(): Record<string, unknown> {
    return {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
      'io.modelcontextprotocol/clientInfo': { name: 'consent-fuzzer', version: '1' }
    };
  }

  /** Sends `tools/call` and classifies the reply. */
  callTool(call: WireCall): Promise<WireOutcome> {
    const params: Record<string, unknown> = { name: call.name, arguments: call.arguments };
    if (call.inputResponses !== undefined) params.inputResponses = call.inputResponses;
    if (call.requestState !== undefined) params.requestState = call.requestState;
    params._meta = WireClient.envelope();
    return this.request('tools/call', params, { 'mcp-name': call.name });
  }

  /** Sends any request (its `_meta` is the caller's) and classifies the reply. */
  async request(method: string, params: Record<string, unknown>, headers: Record<string, string> = {}): Promise<WireOutcome> {
    const id = this.nextId++;
    // JSON.stringify writes own keys only, and keeps an own `__proto__` (as JSON.parse makes it) as a key.
    const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
    const signal = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    let raw: string;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': MODERN,
          'mcp-method': method,
          ...headers
        },
        body,
        signal
      });
      raw = await response.text(); // the same signal bounds reading the body
    } catch (error) {
      if (signal.aborted) throw new Error(`${method} (id ${id}) got no complete reply within ${this.timeoutMs} ms: a hang. Sent: ${body}`);
      throw error;
    }
    const outcome = classify(response.status, raw, readMessage(response.headers.get('content-type') ?? '', raw, id));
    this.replies.push(outcome);
    return outcome;
  }
}

/** The JSON-RPC message answering `id` in a JSON or SSE body. */
function readMessage(contentType: string, raw: string, id: number): Record<string, unknown> | undefined {
  const messages: unknown[] = [];
  if (contentType.includes('text/event-stream')) {
    for (const event of raw.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n');
      if (data) messages.push(parseJson(data));
    }
  } else if (raw.trim() !== '') {
    messages.push(parseJson(raw));
  }
  const replies = messages.filter(
    (m): m is Record<string, unknown> => typeof m === 'object' && m !== null && ('result' in m || 'error' in m)
  );
  return replies.find((m) => m.id === id) ?? (replies.length === 1 && replies[0].id === null ? replies[0] : undefined);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function classify(status: number, raw: string, message: Record<string, unknown> | undefined): WireOutcome {
  if (!message) throw new Error(`HTTP ${status} without a JSON-RPC reply: ${raw.slice(0, 500)}`);
  if ('error' in message) {
    const error = (message.error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
    return {
      status,
      raw,
      kind: 'error',
      code: typeof error.code === 'number' ? error.code : NaN,
      message: typeof error.message === 'string' ? error.message : '',
      data: error.data
    };
  }
  const result = (message.result ?? {}) as Record<string, unknown>;
  if (result.resultType === 'input_required') {
    return {
      status,
      raw,
      kind: 'input_required',
      inputRequests: (result.inputRequests ?? {}) as Record<string, WireInputRequest>,
      requestState: typeof result.requestState === 'string' ? result.requestState : undefined
    };
  }
  const blocks = Array.isArray(result.content) ? (result.content as Array<{ type?: unknown; text?: unknown }>) : [];
  return {
    status,
    raw,
    kind: 'complete',
    isError: result.isError === true,
    text: blocks
      .filter((b) => b.type === 'text' && typeof b.text === 'string')
      .map((b) => b.text as string)
      .join('\n'),
    structuredContent: result.structuredContent
  };
}

/** A short description of an outcome for assertion messages. */
export function describeOutcome(outcome: WireOutcome): string {
  switch (outcome.kind) {
    case 'error':
      return `JSON-RPC error ${outcome.code} "${outcome.message}" (HTTP ${outcome.status})`;
    case 'input_required':
      return `input_required ${JSON.stringify(Object.fromEntries(Object.entries(outcome.inputRequests).map(([k, r]) => [k, r.params?.message])))}`;
    case 'complete':
      return `${outcome.isError ? 'error result' : 'result'} "${outcome.text.slice(0, 300)}"`;
  }
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * `token` with the character at `position` changed so that what it encodes changes: a
 * base64url character gets one of its two high bits flipped (those always carry data; the
 * low bits of a segment's last character may be padding, which decoders ignore), any other
 * character becomes another.
 */
export function flipChar(token: string, position: number, highBit: 0 | 1): string {
  const at = Math.min(Math.max(position, 0), token.length - 1);
  const ch = token[at];
  const index = BASE64URL.indexOf(ch);
  const replacement = index >= 0 ? BASE64URL[index ^ (highBit === 0 ? 32 : 16)] : ch === 'A' ? 'B' : 'A';
  return token.slice(0, at) + replacement + token.slice(at + 1);
}

/**
 * The same token spelled differently: the low (padding) bits of its MAC's last character
 * set, which a base64 decoder ignores. Same bytes, so a server that remembers used states by
 * their spelling would take it for a new one.
 */
export function respell(token: string): string | undefined {
  const dot = token.lastIndexOf('.');
  const mac = token.slice(dot + 1);
  const bits = (mac.length * 6) % 8; // padding bits in the last character
  if (dot < 0 || bits === 0) return undefined;
  const last = BASE64URL.indexOf(mac[mac.length - 1]);
  const variant = BASE64URL[last ^ ((1 << bits) - 1)];
  return `${token.slice(0, -1)}${variant}`;
}
