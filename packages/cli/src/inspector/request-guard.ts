import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The largest JSON body the page sends (a tool's arguments, an answer). */
export const MAX_BODY_BYTES = 1_000_000;

/** A request the guard refuses, with its HTTP status. */
export class GuardRefusal extends Error {
  constructor(
    readonly status: number,
    message: string
  ) {
    super(message);
  }
}

/**
 * Who may drive the inspector: only its own page. The server listens on 127.0.0.1, but any page
 * in the browser can send requests there, so each request must name the inspector by the
 * address it listens on (the Host header: a DNS-rebinding page names its own host) and carry
 * the per-run token (the first path segment, which other pages cannot know). Requests that
 * change something must also be JSON sent from the inspector's own origin.
 */
export class RequestGuard {
  private readonly token: Buffer;

  constructor(
    token: string,
    private readonly port: () => number
  ) {
    this.token = Buffer.from(token);
  }

  /** The path after the token (`""` for the page), or a refusal. */
  check(request: IncomingMessage): string {
    const hosts = [`127.0.0.1:${this.port()}`, `localhost:${this.port()}`];
    if (!hosts.includes(request.headers.host ?? '')) throw new GuardRefusal(421, 'this inspector answers only at its own address');
    const path = new URL(request.url ?? '/', 'http://inspector').pathname;
    const [, first = '', ...rest] = path.split('/');
    const given = Buffer.from(first);
    if (given.length !== this.token.length || !timingSafeEqual(given, this.token)) throw new GuardRefusal(404, 'not found');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const origin = request.headers.origin;
      if (origin !== undefined && !hosts.some((host) => origin === `http://${host}`))
        throw new GuardRefusal(403, 'requests come from the inspector page only');
      if (!/^application\/json\b/.test(request.headers['content-type'] ?? ''))
        throw new GuardRefusal(415, 'send JSON (Content-Type: application/json)');
    }
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none')
      throw new GuardRefusal(403, 'requests come from the inspector page only');
    return rest.join('/');
  }
}

/** Reads a JSON body of at most {@link MAX_BODY_BYTES}; a refusal when larger or not JSON. */
export async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new GuardRefusal(413, `the body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new GuardRefusal(400, 'the body is not JSON');
  }
}
