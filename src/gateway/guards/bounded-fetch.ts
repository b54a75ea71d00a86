import { UpstreamError } from '../../errors';

/**
 * A `fetch` for an upstream's Streamable HTTP transport whose response bodies are cut off at
 * `maxBytes` per message (a JSON body whole; an SSE stream per event, counted from the last blank
 * line): past it the body fails with an {@link UpstreamError}, so that one answer of 50 MB is
 * never buffered. `label` names the upstream in the error.
 */
export function boundedFetch(maxBytes: number, label: string): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!response.body) return response;
    const sse = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    let size = 0;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        // A blank line (\n\n, or \n\r\n) ends an SSE event: the count starts again after the chunk's last one.
        const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        const end = sse ? Math.max(bytes.lastIndexOf('\n\n'), bytes.lastIndexOf('\n\r\n')) : -1;
        size = end >= 0 ? chunk.byteLength - end : size + chunk.byteLength;
        if (size > maxBytes) {
          controller.error(new UpstreamError(`The upstream ${label} sent a message over ${maxBytes} bytes; the gateway does not read it.`));
          return;
        }
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
