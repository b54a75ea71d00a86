/**
 * The same response, calling `ended` once when its body has been read to the end, failed, or been
 * cancelled (the client went away); at once for a response without a body or with a JSON body. A
 * session counts its requests in flight with it: a POST answered on an event stream is in flight
 * until that stream ends.
 */
export function onResponseEnd(response: Response, ended: () => void): Response {
  let done = false;
  const end = () => {
    if (done) return;
    done = true;
    ended();
  };
  // A JSON answer (or none) is whole when it is handed back: only an event stream stays open, and
  // only it is wrapped (a stream and a Response more per call).
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
    end();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          end();
          controller.close();
        } else controller.enqueue(chunk.value);
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    async cancel(reason) {
      end();
      await reader.cancel(reason);
    }
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
