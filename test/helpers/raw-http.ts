/**
 * Raw JSON-RPC over real HTTP, for tests that must send what no well-behaved client sends
 * (answers nobody asked for, prototype keys, batches, odd Accept headers). Answers are read
 * whether the server replies with JSON or an SSE stream.
 */

/** The 2026-07-28 per-request envelope keys. */
export const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';

/** One HTTP answer: its status, headers, and the JSON-RPC messages in its body. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly messages: Array<Record<string, unknown>>;
}

let nextId = 1;

/** POSTs `body` (a string is sent as is, anything else as JSON) and reads the whole answer. */
export async function postRaw(url: URL, body: unknown, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body)
  });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  let messages: Array<Record<string, unknown>> = [];
  if (type.includes('text/event-stream')) {
    messages = text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim())
      .filter((data) => data.length > 0)
      .map((data) => JSON.parse(data) as Record<string, unknown>);
  } else if (text.length > 0) {
    const parsed = JSON.parse(text) as Record<string, unknown> | Array<Record<string, unknown>>;
    messages = Array.isArray(parsed) ? parsed : [parsed];
  }
  return { status: res.status, headers: res.headers, messages };
}

/** The answer to a JSON-RPC request (the message with an id and a result or an error). */
export function responseOf(answer: RawAnswer): { result?: Record<string, unknown>; error?: { code: number; message: string } } {
  const response = answer.messages.find((m) => 'result' in m || 'error' in m);
  if (!response) throw new Error(`no JSON-RPC response in an HTTP ${answer.status} answer`);
  return response as never;
}

/**
 * A 2026-07-28 request: the envelope in `_meta`, the version header, and the routing headers.
 * `extraParams` go next to name/arguments (`inputResponses`, `requestState`). `rawParams`, when
 * given, is spliced in as JSON text (for keys like `__proto__` that must arrive as written).
 */
export function modernRequest(
  method: string,
  params: Record<string, unknown>,
  options: { capabilities?: Record<string, unknown>; rawParams?: string } = {}
): { body: string; headers: Record<string, string> } {
  const meta = {
    [PROTOCOL_VERSION_KEY]: '2026-07-28',
    [CLIENT_CAPABILITIES_KEY]: options.capabilities ?? { elicitation: { form: {} } },
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }
  };
  const base = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: meta } });
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  return {
    body: options.rawParams ? spliceParams(base, options.rawParams) : base,
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) }
  };
}

/**
 * The headers of a raw 2026-07-28 POST sent with `fetch` (postRaw adds the first two itself): JSON
 * in, JSON or SSE out, the version, and the routing headers of `method` on `name`; `extra` after.
 */
export function modernPostHeaders(method: string, name?: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(name ? { 'mcp-name': name } : {}),
    ...extra
  };
}

function spliceParams(base: string, raw: string): string {
  // base ends with `}}` (params, then the message): insert `,raw` before the params' closing brace.
  return `${base.slice(0, -2)},${raw}}}`;
}

/** Opens a 2025-era session at `version` with a raw initialize; returns its headers for later requests. */
export async function openLegacySession(url: URL, version: string): Promise<Record<string, string>> {
  const init = await postRaw(url, {
    jsonrpc: '2.0',
    id: nextId++,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } }
  });
  const sessionId = init.headers.get('mcp-session-id');
  if (init.status !== 200 || !sessionId) throw new Error(`initialize failed: HTTP ${init.status}`);
  const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': version };
  const initialized = await postRaw(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  if (initialized.status !== 202) throw new Error(`notifications/initialized failed: HTTP ${initialized.status}`);
  return headers;
}

/** A fresh JSON-RPC id. */
export function freshId(): number {
  return nextId++;
}

/** A response body read as text as it streams: `until(needle)` reads on until the text holds `needle`. */
export function streamText(response: Response): { until(needle: string): Promise<string>; cancel(): Promise<void> } {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    async until(needle) {
      while (!text.includes(needle)) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error(`the stream ended before ${needle}:\n${text}`);
        text += decoder.decode(chunk.value, { stream: true });
      }
      return text;
    },
    cancel: () => reader.cancel()
  };
}

/**
 * An HTTP/1.1 POST (or `method`) as the exact bytes a raw socket sends: `hostLines` as given
 * (none, one, or several), the JSON and SSE content negotiation headers, `headers`, and the body
 * with its length. For tests that must send what `fetch` would refuse to (or fix up).
 */
export function rawRequestText(options: {
  target: string;
  hostLines: readonly string[];
  headers: Record<string, string>;
  body: string;
  method?: string;
  close?: boolean;
}): string {
  return [
    `${options.method ?? 'POST'} ${options.target} HTTP/1.1`,
    ...options.hostLines.map((value) => `Host: ${value}`),
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    ...(options.close ? ['Connection: close'] : []),
    ...Object.entries(options.headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${Buffer.byteLength(options.body)}`,
    '',
    options.body
  ].join('\r\n');
}
