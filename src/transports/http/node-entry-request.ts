import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { ConnectionFacts, ResponsePressure } from './connection-facts';
import type { EntryHeaders, EntryRequest } from './entry-request';

/**
 * The entry request of a Node request (see `entry-request.ts`), for the authority the entry
 * parsed (`authority.ts`): its Host header is that authority. Its headers are read straight from
 * `req.headers` (lower-case names already), answered as a `Headers` filled from them would answer;
 * the web `Request` (without a body: the entry reads that itself) is built on first `web()`.
 */
export function nodeEntryRequest(req: IncomingMessage, signal: AbortSignal, authority: string): EntryRequest {
  return new NodeEntryRequest(req, signal, authority);
}

class NodeEntryRequest implements EntryRequest {
  readonly method: string;
  readonly headers: EntryHeaders;
  readonly remoteAddress: string | undefined;
  /** Shared with the web `Request` built for it: whoever reads either sees the same pressure. */
  readonly pressure: ResponsePressure = { congested: false };
  #web: Request | undefined;

  constructor(
    private readonly req: IncomingMessage,
    readonly signal: AbortSignal,
    private readonly authority: string
  ) {
    this.method = req.method ?? 'GET';
    this.headers = new NodeHeaders(req.headers, authority);
    this.remoteAddress = req.socket?.remoteAddress;
    // A method no web `Request` may have fails here, where building one always failed (the entry answers 500).
    if (REFUSED_METHODS.has(this.method.toUpperCase())) this.web();
  }

  /** The URL as the web `Request` serializes it (read where a URL is needed: it builds the `Request`). */
  get url(): string {
    return this.web().url;
  }

  web(): Request {
    return (this.#web ??= webRequestOf(this.req, this.signal, this.authority, this.remoteAddress, this.pressure));
  }
}

/** The methods a web `Request` refuses (the Fetch standard's forbidden methods). */
const REFUSED_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** HTTP whitespace, which `Headers` strips from either end of a value. */
const HTTP_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/** `req.headers` read as `Headers.get`/`has` read a `Headers` filled from them, with `host` the parsed authority. */
class NodeHeaders implements EntryHeaders {
  constructor(
    private readonly raw: IncomingHttpHeaders,
    private readonly host: string
  ) {}

  get(name: string): string | null {
    const key = name.toLowerCase();
    if (key === 'host') return this.host;
    if (key.startsWith(':')) return null;
    const value = this.raw[key];
    if (value === undefined) return null;
    // Repeated values (`set-cookie`) are joined as `Headers.get` joins appended ones.
    return Array.isArray(value) ? value.map(normalized).join(', ') : normalized(value);
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }
}

function normalized(value: string): string {
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  const padded = first === 9 || first === 10 || first === 13 || first === 32 || last === 9 || last === 10 || last === 13 || last === 32;
  return padded ? value.replace(HTTP_WHITESPACE, '') : value;
}

/** The web `Request` of a Node request, carrying the entry's signal and connection facts. */
function webRequestOf(
  req: IncomingMessage,
  signal: AbortSignal,
  authority: string,
  remoteAddress: string | undefined,
  pressure: ResponsePressure
): Request {
  const headers = new Headers();
  const raw = req.headers;
  for (const name in raw) {
    const value = raw[name];
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  headers.set('host', authority);
  const target = req.url ?? '/';
  const path = target.startsWith('/') ? target : target.replace(/^https?:\/\/[^/?#]*/i, '') || '/';
  const url = `http://${authority}${path.startsWith('/') ? path : `/${path}`}`;
  const Built = nodeWebRequestType();
  return new Built(url, { method: req.method ?? 'GET', headers }, signal, remoteAddress, pressure);
}

/**
 * A `Request` whose `signal` is the entry's own, aborted when the client goes away: given as
 * `init.signal`, undici would make a second signal and link the two (half the cost of building
 * the request). A clone of it follows undici's own signal, which never aborts: nothing here
 * clones it (the entry hands the SDK the parsed body, so it reads no body either). Defined on
 * first use: Node loads its fetch implementation when `Request` is first touched, and an app
 * need not pay for that before it serves its first request.
 */
type NodeWebRequestClass = new (
  url: string,
  init: RequestInit,
  signal: AbortSignal,
  remoteAddress: string | undefined,
  pressure: ResponsePressure
) => Request & ConnectionFacts;
let nodeWebRequestClass: NodeWebRequestClass | undefined;

function nodeWebRequestType(): NodeWebRequestClass {
  return (nodeWebRequestClass ??= class NodeWebRequest extends Request implements ConnectionFacts {
    readonly #signal: AbortSignal;

    constructor(
      url: string,
      init: RequestInit,
      signal: AbortSignal,
      /** What the connection knows that a web `Request` does not carry (see connection-facts.ts). */
      readonly remoteAddress: string | undefined,
      readonly pressure: ResponsePressure
    ) {
      super(url, init);
      this.#signal = signal;
    }

    override get signal(): AbortSignal {
      return this.#signal;
    }
  });
}
