import { readRequestBody } from '@modelcontextprotocol/server';
import type { ReadBody } from './node-entry';

const DIGITS = /^\d{1,15}$/;

/**
 * On Bun, reading a served request's body whole (`request.text()`, `arrayBuffer()`) costs about
 * 60 to 100 µs of CPU a request on one of its own threads (`JSCWarmUp` in `/proc`), which an
 * in-process micro-bench does not see; read chunk by chunk it costs a few µs (runtime bench,
 * `bun 1.4.5`, per-thread CPU of the server: `docs/performance.md`). Deno reads it whole for
 * less; on Node the two cost about the same.
 */
const WHOLE_READ_IS_DEAR = typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined';

/**
 * Reads a web-standard request's body as text, at most `maxBytes`. A body that declares its
 * length within the bound (what a runtime's HTTP server frames by `Content-Length`) is read in
 * one piece by the runtime (`request.text()`): on Deno that costs a fraction of reading the
 * stream chunk by chunk in JavaScript (on Bun more: see `WHOLE_READ_IS_DEAR`). A declared length over the bound is refused unread;
 * a body without one (chunked) is read chunk by chunk and refused as soon as it passes the bound
 * (the SDK's `readRequestBody`). A body built in process that holds more than it declared is
 * refused too once read (a string never has more UTF-16 units than its UTF-8 bytes).
 */
export async function readWebBody(request: Request, maxBytes: number): Promise<ReadBody> {
  const declared = request.headers.get('content-length');
  if (declared === null || !DIGITS.test(declared)) return readRequestBody(request, maxBytes);
  if (Number(declared) > maxBytes) return { tooLarge: true };
  if (WHOLE_READ_IS_DEAR) return readRequestBody(request, maxBytes);
  const text = await request.text();
  return text.length > maxBytes ? { tooLarge: true } : { tooLarge: false, text };
}
