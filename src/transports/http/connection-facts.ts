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

const pressures = new WeakMap<Request, ResponsePressure>();

/** The pressure of the response to `request` (made by the entry that writes it). */
export function pressureFor(request: Request): ResponsePressure {
  let pressure = pressures.get(request);
  if (!pressure) pressures.set(request, (pressure = { congested: false }));
  return pressure;
}

/** Whether the response to `request` is congested now (false for a request no entry streams). */
export function isCongested(request: Request | undefined): boolean {
  return request !== undefined && pressures.get(request)?.congested === true;
}

const addresses = new WeakMap<Request, string>();

/** Records the network address a request came from (the Node entry knows it; a web `Request` does not carry it). */
export function rememberRemoteAddress(request: Request, address: string | undefined): void {
  if (address !== undefined) addresses.set(request, address);
}

/** The network address a request came from, when the entry that built it knew it. */
export function remoteAddressOf(request: Request | undefined): string | undefined {
  return request === undefined ? undefined : addresses.get(request);
}
