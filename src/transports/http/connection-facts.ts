/**
 * What the HTTP entry knows of a request's connection that a web `Request` does not carry: how
 * far its client is behind in reading the streamed response, and its network address.
 *
 * How far a client is behind in reading one streamed response: set by the Node entry as it
 * writes the stream, read by whoever would queue more on it. While a response is congested
 * (the socket's buffer is full: the client does not read), progress notifications for its call
 * are dropped rather than queued, so a client that never reads its stream cannot make the
 * server buffer without bound; the final answer still waits for the client, up to the entry's
 * write timeout, after which the stream is ended and the call cancelled.
 */
export interface ResponsePressure {
  congested: boolean;
}

/**
 * What the Node entry knows of a request's connection, carried by its entry request and by the
 * `Request` it builds from it (its own subclass, see node-entry-request.ts: the same pressure):
 * the facts travel with the request, not in a table beside it.
 * A `Request` built elsewhere (an in-process fetch, another framework) has none of them.
 */
export interface ConnectionFacts {
  /** The client's network address. */
  readonly remoteAddress: string | undefined;
  /** How far the client is behind in reading the streamed response to it. */
  readonly pressure: ResponsePressure;
}

/** A request that may carry the facts: a web `Request` (the Node entry's own carries them) or an entry request (`entry-request.ts`). */
type FactsCarrier = Request | { readonly remoteAddress: string | undefined; readonly pressure: ResponsePressure | undefined };

/** The facts a request carries, where the Node entry built it. */
function factsOf(request: FactsCarrier | undefined): Partial<ConnectionFacts> | undefined {
  return request as Partial<ConnectionFacts> | undefined;
}

/** The pressure of the response to `request` (a fresh one, that nobody reads, for a request no entry streams). */
export function pressureFor(request: FactsCarrier): ResponsePressure {
  return factsOf(request)?.pressure ?? { congested: false };
}

/** Whether the response to `request` is congested now (false for a request no entry streams). */
export function isCongested(request: FactsCarrier | undefined): boolean {
  return factsOf(request)?.pressure?.congested === true;
}

/** The network address a request came from, when the entry that built it knew it. */
export function remoteAddressOf(request: FactsCarrier | undefined): string | undefined {
  return factsOf(request)?.remoteAddress;
}
