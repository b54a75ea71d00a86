import { readRequestBody } from '@modelcontextprotocol/server';
import type { ReadBody } from './node-entry';

const DIGITS = /^\d{1,15}$/;

/**
 * Reads a web-standard request's body as text, at most `maxBytes`. A body that declares its
 * length within the bound (what a runtime's HTTP server frames by `Content-Length`) is read in
 * one piece by the runtime (`request.text()`): on Bun and Deno that costs a fraction of reading
 * the stream chunk by chunk in JavaScript. A declared length over the bound is refused unread;
 * a body without one (chunked) is read chunk by chunk and refused as soon as it passes the bound
 * (the SDK's `readRequestBody`). A body built in process that holds more than it declared is
 * refused too once read (a string never has more UTF-16 units than its UTF-8 bytes).
 */
export async function readWebBody(request: Request, maxBytes: number): Promise<ReadBody> {
  const declared = request.headers.get('content-length');
  if (declared === null || !DIGITS.test(declared)) return readRequestBody(request, maxBytes);
  if (Number(declared) > maxBytes) return { tooLarge: true };
  const text = await request.text();
  return text.length > maxBytes ? { tooLarge: true } : { tooLarge: false, text };
}
