import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

interface StoredEvent {
  readonly id: EventId;
  readonly streamId: StreamId;
  readonly message: JSONRPCMessage;
}

/**
 * The default event store of a 2025-era session: the last `capacity` messages of the session's
 * SSE streams, in memory, so a client whose stream dropped reconnects with `Last-Event-ID` and
 * gets what it missed. Bounded per session (and sessions are bounded), so memory is too.
 * Sessions live in one process; a multi-instance deployment supplies a shared store instead.
 */
export class BoundedSessionEventStore implements EventStore {
  private readonly events: StoredEvent[] = [];
  private sequence = 0;

  /** `capacity`: the most messages kept (across the session's streams), oldest dropped first. Default 1000. */
  constructor(private readonly capacity = 1000) {}

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const id = `${streamId}:${++this.sequence}`;
    this.events.push({ id, streamId, message });
    if (this.events.length > this.capacity) this.events.splice(0, this.events.length - this.capacity);
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.events.find((e) => e.id === eventId)?.streamId;
  }

  /** Sends, in order, the events of `lastEventId`'s stream that came after it; answers that stream's id. */
  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }
  ): Promise<StreamId> {
    const index = this.events.findIndex((e) => e.id === lastEventId);
    if (index < 0) throw new Error(`Unknown or expired event id ${lastEventId}`);
    const { streamId } = this.events[index];
    for (const event of this.events.slice(index + 1)) {
      if (event.streamId === streamId) await send(event.id, event.message);
    }
    return streamId;
  }
}
