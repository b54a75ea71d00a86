import { UpstreamError } from '../../errors';

/**
 * A `fetch` for an upstream's Streamable HTTP transport whose response bodies are cut off at
 * `maxBytes` per message (a JSON body whole; an SSE stream per event, counted from the last blank
 * line): past it the body fails with an {@link UpstreamError}, so that one answer of 50 MB is
 * never buffered. `label` names the upstream in the error; `base` sends the request (default: the global `fetch`).
 */
export function boundedFetch(
  maxBytes: number,
  label: string,
  base: (url: string | URL, init?: RequestInit) => Promise<Response> = fetch
): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.body) return response;
    const sse = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    let size = 0;
    let newlineLast = false;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        // Each event of the chunk is measured: a blank line (\n\n, or \n\r\n) ends one, also across chunks.
        for (let from = 0; ;) {
          const next = sse ? eventEnd(bytes, from, newlineLast && from === 0) : -1;
          size += (next < 0 ? bytes.length : next) - from;
          if (size > maxBytes) {
            controller.error(
              new UpstreamError(`The upstream ${label} sent a message over ${maxBytes} bytes; the gateway does not read it.`)
            );
            return;
          }
          if (next < 0) break;
          size = 0;
          from = next;
        }
        newlineLast = bytes.length > 0 && bytes[bytes.length - 1] === 10;
        controller.enqueue(chunk);
      }
    });
    return new Response(response.body.pipeThrough(counter), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers
    });
  };
}

/** Where the SSE event that runs at `from` ends (just past its blank line), or -1 when it goes on past the chunk. */
function eventEnd(bytes: Buffer, from: number, afterNewline: boolean): number {
  if (afterNewline && bytes[0] === 10) return 1;
  if (afterNewline && bytes[0] === 13 && bytes[1] === 10) return 2;
  const lf = bytes.indexOf('\n\n', from);
  const crlf = bytes.indexOf('\n\r\n', from);
  if (lf < 0) return crlf < 0 ? -1 : crlf + 3;
  return crlf < 0 || lf < crlf ? lf + 2 : crlf + 3;
}
