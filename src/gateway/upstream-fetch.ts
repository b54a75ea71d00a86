import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { setMaxListeners } from 'node:events';
import { urlToHttpOptions } from 'node:url';

/** The `fetch` an SDK transport takes (`FetchLike`): a URL and an init, a web `Response`. */
export type UpstreamFetchFn = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Abort listeners one signal may carry before node warns (undici's own figure): one per request in flight on it. */
const MAX_IN_FLIGHT_LISTENERS = 1500;

/**
 * The longest a kept-alive socket to an upstream stays idle: below the common servers' own idle
 * close (node's 5 s, uvicorn's 5 s), so that a call seldom reuses a socket the upstream is closing.
 * An upstream's shorter `Keep-Alive: timeout` hint wins (see the constructor).
 */
const IDLE_SOCKET_MS = 4_000;

/** Statuses whose response has no body (a web `Response` refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * The gateway's HTTP client to an upstream: `fetch` on `node:http` with a keep-alive agent of
 * its own, for one upstream connection. Profiling the gateway showed the global `fetch`
 * (undici's WHATWG machinery: a `Request`, a body stream written chunk by chunk, listener checks
 * on the signal) as the largest cost of a proxied call; this sends each request in one write
 * on a reused socket and hands the SDK a `Response` over the socket's stream (with backpressure:
 * the socket pauses while the stream is full). Failures read as undici's do (`fetch failed`, the
 * network error as its `cause`), so what the gateway says of a down upstream is unchanged.
 * {@link close} ends its sockets (the connection closed).
 */
export class UpstreamFetch {
  private readonly agents: { http: HttpAgent; https: HttpsAgent };
  /** The last URL's request options, kept: a connection sends every call to one URL, and node would derive them from it per request. */
  private target: { url: URL; href: string; options: ReturnType<typeof urlToHttpOptions> } | undefined;

  constructor() {
    // `timeout` is what makes node honour an upstream's `Keep-Alive: timeout=N` hint (node's own servers send
    // `timeout=5`): a kept socket is then closed a second before the upstream would close it, instead of being reused
    // as the upstream closes it (the request reset, the call failed, the gateway reconnecting). node applies the hint
    // only when it is below the agent's timeout, so with none set it never does. The same bound closes idle sockets of
    // an upstream that sends no hint. A socket in use is not ended by it (node only emits `timeout` on the request).
    const options = { keepAlive: true, timeout: IDLE_SOCKET_MS };
    this.agents = { http: new HttpAgent(options), https: new HttpsAgent(options) };
  }

  /** The fetch function (bound: the SDK calls it bare). */
  readonly fetch: UpstreamFetchFn = (url, init) => this.send(typeof url === 'string' ? new URL(url) : url, init ?? {});

  /** Ends its sockets, idle and in use (the connection is closed). */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /**
   * One request on the connection's own keep-alive sockets, answered with node's response as it
   * is (the gateway's direct calls read it without a web `Response`, see `direct-call.ts`).
   * Failures read as {@link send}'s do; aborting `signal` destroys the request (and its body).
   */
  request(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: string | Buffer | undefined,
    signal?: AbortSignal
  ): Promise<IncomingMessage> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const secure = url.protocol === 'https:';
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    return new Promise<IncomingMessage>((resolve, reject) => {
      const request = (secure ? httpsRequest : httpRequest)({
        ...this.optionsOf(url),
        method,
        headers,
        agent: secure ? this.agents.https : this.agents.http
      });
      let answered = false;
      const onAbort = (): void => {
        const reason = signal!.reason as Error;
        request.destroy(reason);
        if (!answered) reject(reason);
      };
      if (signal) {
        // The SDK may send every request with its transport's one signal: a listener per request in flight (as undici allows).
        setMaxListeners(MAX_IN_FLIGHT_LISTENERS, signal);
        signal.addEventListener('abort', onAbort, { once: true });
      }
      request.once('error', (error: NodeJS.ErrnoException) => {
        signal?.removeEventListener('abort', onAbort);
        if (answered || signal?.aborted) return;
        // Not sent again, even on a reused socket (node's remedy for idempotent requests): a reset can come after the
        // upstream read the request, and a `tools/call` sent twice may do its effect twice. The idle bound above keeps
        // the reuse race away instead.
        reject(new TypeError('fetch failed', { cause: error }));
      });
      request.once('response', (incoming) => {
        answered = true;
        // The signal goes on ending the body (an SSE stream the call stops reading) until the body ends.
        incoming.once('close', () => signal?.removeEventListener('abort', onAbort));
        resolve(incoming);
      });
      request.end(body);
    });
  }

  /** Node's options for `url` (host, port, path, auth), derived once while the URL stays the same. */
  private optionsOf(url: URL): ReturnType<typeof urlToHttpOptions> {
    // Compared by href too: a URL can be changed in place.
    if (this.target?.url !== url || this.target.href !== url.href) this.target = { url, href: url.href, options: urlToHttpOptions(url) };
    return this.target.options;
  }

  private async send(url: URL, init: RequestInit): Promise<Response> {
    const incoming = await this.request(url, init.method ?? 'GET', headerRecord(init.headers), bodyOf(init.body), init.signal ?? undefined);
    return responseOf(incoming);
  }
}

/** The init's headers as node takes them (a `Headers`, a record or pairs). */
function headerRecord(init: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!init) return out;
  if (init instanceof Headers) init.forEach((value, name) => (out[name] = value));
  else if (Array.isArray(init)) for (const [name, value] of init) out[name.toLowerCase()] = value;
  else for (const name of Object.keys(init)) out[name.toLowerCase()] = (init as Record<string, string>)[name];
  return out;
}

/** A request body as one write: the SDK sends JSON text (a string); bytes pass as they are. */
function bodyOf(body: RequestInit['body']): string | Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  throw new TypeError('The gateway sends upstream only text or byte bodies.');
}

/** A web `Response` over a node response: its status and headers, its body a byte stream that pauses the socket while full. */
function responseOf(incoming: IncomingMessage): Response {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const status = incoming.statusCode ?? 502;
  if (NULL_BODY.has(status)) {
    incoming.resume();
    return new Response(null, { status, statusText: incoming.statusMessage ?? '', headers });
  }
  let settled = false;
  // The stream ends once: closed, errored or cancelled (whichever came first).
  const settle = (end: () => void): void => {
    if (settled) return;
    settled = true;
    end();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        incoming.on('data', (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 1) <= 0) incoming.pause();
        });
        incoming.once('end', () => settle(() => controller.close()));
        incoming.once('error', (error) => settle(() => controller.error(error)));
        // A body cut short (the upstream died mid-stream, or the request was aborted) errors the stream, as undici's does.
        incoming.once('aborted', () => settle(() => controller.error(new TypeError('terminated'))));
      },
      pull() {
        incoming.resume();
      },
      cancel() {
        settled = true;
        incoming.destroy();
      }
    },
    { highWaterMark: 16 }
  );
  return new Response(body, { status, statusText: incoming.statusMessage ?? '', headers });
}
