import type { ExtensionListenRequest } from '@mcpfusion/core';

/** The `_meta` key that names the listen on each message of its stream (2026-07-28, `subscriptions/listen`). */
const SUBSCRIPTION_ID_META_KEY = 'io.modelcontextprotocol/subscriptionId';

/** What a desks listen streams: the directory now, built again for each message. */
export interface DeskListenSource {
  /** The directory's entries now (`desks/list`'s `desks`). */
  snapshot(): readonly object[];
  /** Calls `listener` after each change worth telling; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
}

/**
 * The response to a `subscriptions/listen` of the desks extension: a stream of server-sent
 * events that opens with `notifications/subscriptions/acknowledged` (the filter honoured), then
 * sends `method` with the directory now, and again after each change of the source (the latest
 * only, to a client that reads slower than they come); every message carries the listen's id as
 * its subscription id. It ends when the client closes it
 * (`request.signal`), its listener removed.
 */
export function deskListenResponse(request: ExtensionListenRequest, method: string, filterKey: string, source: DeskListenSource): Response {
  const encoder = new TextEncoder();
  const meta = { [SUBSCRIPTION_ID_META_KEY]: request.id };
  let stopListening = (): void => undefined;
  let closed = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const write = (message: object): void => {
    if (!closed) controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', ...message })}\n\n`));
  };
  // A client that reads slowly gets the latest directory, not every one in between: while a message
  // is still queued, a change only marks the directory dirty, and the next read (`pull`) sends it.
  let dirty = false;
  const push = (): void => {
    dirty = (controller.desiredSize ?? 1) <= 0;
    if (!dirty) write({ method, params: { desks: source.snapshot(), _meta: meta } });
  };
  /** Ends the stream: closed here when the client went away (`request.signal`), already cancelled when its reader cancelled it. */
  const end = (cancelled = false): void => {
    if (closed) return;
    closed = true;
    stopListening();
    request.signal.removeEventListener('abort', onAbort);
    if (!cancelled) controller.close();
  };
  const onAbort = (): void => end();
  const readable = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
      if (request.signal.aborted) return end();
      write({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { [filterKey]: true }, _meta: meta } });
      push();
      stopListening = source.onChange(push);
      request.signal.addEventListener('abort', onAbort, { once: true });
    },
    pull() {
      if (dirty) push();
    },
    cancel() {
      end(true);
    }
  });
  return new Response(readable, {
    status: 200,
    headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive' }
  });
}
