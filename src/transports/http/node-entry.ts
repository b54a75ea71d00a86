import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResponsePressure } from './connection-facts';
import { jsonAnswerText } from './json-answer';

/** A POST body as read once by an entry: its text, or that it is over the limit. */
export type ReadBody = { readonly tooLarge: true } | { readonly tooLarge: false; readonly text: string };

/** Reads a request's body (once); rejects when it cannot be read. */
export type BodyReader = () => Promise<ReadBody>;

/**
 * The Node side of the HTTP entry, in place of the SDK's `toNodeHandler`: the body is read
 * from the Node stream itself and parsed once by the entry, so the web `Request` the SDK gets
 * carries headers, method, URL and the abort signal but no body stream (the entry hands the
 * SDK the parsed message, which reads no body then). Building a `Request` with a body and
 * reading it back through web streams cost more than the rest of the entry; a JSON answer is
 * written in one piece with its length rather than through the response's stream.
 */

/** The path of a request target (`/mcp?x=1` → `/mcp`). */
export function pathOf(target: string | undefined): string {
  if (!target) return '/';
  const query = target.indexOf('?');
  const pathname = query === -1 ? target : target.slice(0, query);
  // An absolute-form target (`http://host/mcp`): the path is what follows the authority.
  if (pathname.startsWith('/')) return pathname;
  try {
    return new URL(target).pathname;
  } catch {
    return pathname;
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const utf8 = new TextDecoder();

/**
 * Reads a Node request's body, at most `max` bytes: a declared or actual length over it is
 * `tooLarge` at once (the rest is not read; the answer closes the connection).
 */
export function readNodeBody(req: IncomingMessage, max: number): Promise<ReadBody> {
  const declared = Number(headerValue(req.headers['content-length']));
  if (declared > max) return Promise.resolve({ tooLarge: true });
  // Gone before the entry came to read it (while a token was being checked, say): no event is coming.
  if (req.destroyed) return Promise.reject(new Error('The request was closed before its body was read'));
  return new Promise<ReadBody>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > max) {
        done();
        resolve({ tooLarge: true });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      done();
      resolve({ text: utf8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)), tooLarge: false });
    };
    const onError = (error: Error): void => {
      done();
      reject(error);
    };
    const onClose = (): void => {
      // Closed before its end: the client went away mid-body.
      done();
      reject(new Error('The request body was not received in full'));
    };
    const done = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/**
 * Writes a web `Response` to a Node response: a body that is not an event stream in one piece
 * with its length, an event stream chunk by chunk as it comes (honouring backpressure) until it
 * ends or the client goes away (`signal`).
 */
export async function writeNodeResponse(
  response: Response,
  res: ServerResponse,
  signal: AbortSignal,
  stream: StreamWriting = { pressure: { congested: false }, writeTimeoutMs: DEFAULT_WRITE_TIMEOUT_MS }
): Promise<void> {
  // A JSON answer with its text at hand (json-answer.ts): written as it is, no web body to read back.
  const answer = jsonAnswerText(response);
  if (answer) {
    res.writeHead(response.status, { ...answer.fields, 'content-length': String(Buffer.byteLength(answer.text)) }).end(answer.text);
    return;
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  // A 413 is answered before the rest of the body arrives: the connection is not reused.
  if (response.status === 413) headers.connection = 'close';
  const body = response.body;
  if (body === null) {
    res.writeHead(response.status, headers).end();
    return;
  }
  if (!(headers['content-type'] ?? '').startsWith('text/event-stream')) {
    let buffer: Buffer;
    try {
      buffer = Buffer.from(await response.arrayBuffer());
    } catch {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end();
      return;
    }
    delete headers['transfer-encoding'];
    headers['content-length'] = String(buffer.length);
    res.writeHead(response.status, headers).end(buffer);
    return;
  }
  res.writeHead(response.status, headers);
  await pipeStream(body, res, signal, stream);
  if (!res.destroyed) res.end();
}

/** How long a streamed response may wait for its client to read, by default (ms). */
export const DEFAULT_WRITE_TIMEOUT_MS = 30_000;

/** How an event stream is written: its pressure (see `connection-facts.ts`) and how long a write may wait. */
export interface StreamWriting {
  readonly pressure: ResponsePressure;
  readonly writeTimeoutMs: number;
}

async function pipeStream(
  body: ReadableStream<Uint8Array>,
  res: ServerResponse,
  signal: AbortSignal,
  stream: StreamWriting
): Promise<void> {
  const reader = body.getReader();
  const { pressure } = stream;
  let wake: (() => void) | undefined;
  const resume = (): void => {
    wake?.();
    wake = undefined;
  };
  res.on('drain', resume);
  signal.addEventListener('abort', resume, { once: true });
  // Node sends the headers with the first write. A stream with nothing to say yet (a 2025-era
  // session's GET stream until its first notification or keep-alive, 15 s later) still answers at
  // once; events that come within this turn leave with the headers in one write.
  let silent: NodeJS.Immediate | undefined = setImmediate(() => res.flushHeaders());
  try {
    while (!signal.aborted) {
      const { done, value } = await reader.read();
      if (done) break;
      if (silent) {
        clearImmediate(silent);
        silent = undefined;
      }
      if (res.write(value) || signal.aborted) continue;
      // The client is not reading: nothing more is queued for it (progress is dropped) until it
      // drains; if it reads nothing within the write timeout, the stream ends and the call with it.
      pressure.congested = true;
      const drained = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), stream.writeTimeoutMs);
        wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      pressure.congested = false;
      if (!drained) {
        res.destroy(); // the response closes: the entry aborts the request, which cancels its call
        break;
      }
    }
  } catch {
    // The stream failed mid-answer: what was written stands, and the response is ended below.
  } finally {
    clearImmediate(silent);
    res.off('drain', resume);
    signal.removeEventListener('abort', resume);
    if (signal.aborted) void reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
