import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';
import { BoundedSessionEventStore } from '../session-event-store';

/**
 * The bytes of a lane call's SSE answer, as the SDK's `WebStandardStreamableHTTPServerTransport`
 * writes them (its headers, `writeSSEEvent`, `writePrimingEvent`, its keep-alive comment), so a
 * client reads a lane stream as it reads the normal path's, and resumes it the same way.
 */

const encoder = new TextEncoder();

/** How often a quiet lane stream gets a `: keepalive` comment (the SDK transport's default). */
export const KEEP_ALIVE_MS = 15_000;

/** The keep-alive comment. */
export const KEEP_ALIVE = encoder.encode(': keepalive\n\n');

/** The headers of a lane call's SSE answer (the session's id among them). */
export function sseHeaders(sessionId: string): Record<string, string> {
  return {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'mcp-session-id': sessionId
  };
}

/** One SSE event: the id after the event type, as `writeSSEEvent` puts it. */
export function sseEvent(eventId: string | undefined, message: unknown): Uint8Array {
  const data = JSON.stringify(message);
  return encoder.encode(eventId === undefined ? `event: message\ndata: ${data}\n\n` : `event: message\nid: ${eventId}\ndata: ${data}\n\n`);
}

/** The priming event: an empty event with its id, and the reconnection delay when there is one. */
export function primingEvent(eventId: string, retryIntervalMs: number | undefined): Uint8Array {
  return encoder.encode(
    retryIntervalMs === undefined ? `id: ${eventId}\ndata: \n\n` : `id: ${eventId}\nretry: ${retryIntervalMs}\ndata: \n\n`
  );
}

/** A store's synchronous `storeEvent`. */
export type StoreNow = (streamId: string, message: JSONRPCMessage) => string;

/**
 * The store's `storeEvent` answered in the same turn, where it has one: the default store's
 * (`storeEventNow`), unless a subclass changed how it stores. Other stores are awaited.
 */
export function storeNowOf(store: EventStore): StoreNow | undefined {
  return store instanceof BoundedSessionEventStore && store.storeEvent === BoundedSessionEventStore.prototype.storeEvent
    ? BoundedSessionEventStore.prototype.storeEventNow
    : undefined;
}
