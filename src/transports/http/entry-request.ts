import type { ConnectionFacts, ResponsePressure } from './connection-facts';

/**
 * A request as the HTTP entry's guards, routing, session registry and front lanes read it: the
 * method, the URL, a few headers, the abort signal and the connection facts. The web `Request`
 * itself (`web()`) is built only where one is handed on (to an SDK transport, to app or user code):
 * on Node, building it (URL parse, a `Headers` filled through webidl conversions, undici's own
 * signal) costs more than most of what reads it. The `fetch` entry wraps the `Request` it was
 * given, and its `web()` is that same `Request`.
 */
export interface EntryRequest {
  readonly method: string;
  /** The serialized URL, as `Request.url` has it. */
  readonly url: string;
  readonly headers: EntryHeaders;
  /** Aborted when the client goes away (on Node, the entry's own signal). */
  readonly signal: AbortSignal;
  /** The client's network address, where the entry knew it (see `connection-facts.ts`). */
  readonly remoteAddress: string | undefined;
  /** How far the client is behind in reading the streamed response, where an entry streams it. */
  readonly pressure: ResponsePressure | undefined;
  /** The web `Request`: built on first call, then the same one (with the same signal and facts). */
  web(): Request;
}

/** The headers of an entry request, read only, with `Headers`' answers (`get` joins repeated values). */
export interface EntryHeaders {
  get(name: string): string | null;
  has(name: string): boolean;
}

/** The entry request of a web `Request` (the `fetch` entry): its reads are the `Request`'s own. */
export function webEntryRequest(request: Request): EntryRequest {
  return new WebEntryRequest(request);
}

class WebEntryRequest implements EntryRequest {
  constructor(private readonly request: Request) {}

  get method(): string {
    return this.request.method;
  }

  get url(): string {
    return this.request.url;
  }

  get headers(): EntryHeaders {
    return this.request.headers;
  }

  get signal(): AbortSignal {
    return this.request.signal;
  }

  /** The facts a `Request` carries when a Node entry built it (a `Request` built elsewhere has none). */
  get remoteAddress(): string | undefined {
    return (this.request as Partial<ConnectionFacts>).remoteAddress;
  }

  get pressure(): ResponsePressure | undefined {
    return (this.request as Partial<ConnectionFacts>).pressure;
  }

  web(): Request {
    return this.request;
  }
}
