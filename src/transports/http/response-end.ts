/**
 * When a response has ended: a session counts its requests in flight with it (a POST answered on
 * an event stream is in flight until that stream ends).
 *
 * A JSON answer (or none) is whole when it is handed back: `ended` runs at once. An event stream
 * is left as it is, with `ended` attached for the entry that writes it: the Node entry calls it
 * when it has written the stream (or stopped: the client went away), and the web entry
 * (`endWhenRead`) wraps the body so that reading it to the end calls it. Wrapping every stream
 * would put a second web stream, and a pull, between each event and the socket on the Node path,
 * which writes every progress notification of a 2025-era session.
 */
export function onResponseEnd(response: Response, ended: () => void): Response {
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
    ended();
    return response;
  }
  let done = false;
  (response as EndingResponse)[ENDED] = () => {
    if (done) return;
    done = true;
    ended();
  };
  return response;
}

/** Where `onResponseEnd` keeps a stream's end on the response (a symbol: nothing else reads or copies it). */
const ENDED = Symbol('mcpfusion.responseEnded');

interface EndingResponse extends Response {
  [ENDED]?: () => void;
}

/**
 * Takes the end `onResponseEnd` attached to `response` (once): the caller writes the stream itself and
 * calls it when done (however the writing ended). Undefined when there is none.
 */
export function takeResponseEnd(response: Response): (() => void) | undefined {
  const ended = (response as EndingResponse)[ENDED];
  if (ended) (response as EndingResponse)[ENDED] = undefined;
  return ended;
}

/**
 * For an entry that hands the response on (a web `fetch`): the same response, whose body calls the
 * end `onResponseEnd` attached when it has been read to the end, failed, or been cancelled (the client
 * went away). A response with no end attached is returned as it is.
 */
export function endWhenRead(response: Response): Response {
  const end = takeResponseEnd(response);
  if (!end || !response.body) return response;
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
