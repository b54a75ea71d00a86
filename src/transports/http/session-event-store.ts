import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';
import { ConfigurationError } from '../../errors';

/**
 * The default event store of a 2025-era session: the last `capacity` messages of the session's
 * SSE streams, in memory, so a client whose stream dropped reconnects with `Last-Event-ID` and
 * gets what it missed. Bounded per session (and sessions are bounded), so memory is too.
 * Sessions live in one process; a multi-instance deployment supplies a shared store instead.
 *
 * Every message of a session's streams passes through here (each progress notification among
 * them), so storing is O(1): a ring of `capacity` slots, the oldest overwritten. An event's id is
 * its sequence number in the session (`"1"`, `"2"`, …; unique across the session's streams, as
 * the transport requires, and short: it is written before every event on the wire), so finding an
 * event is arithmetic, not a search.
 */
export class BoundedSessionEventStore implements EventStore {
  /** The stream and the message of each slot; slot `(seq - 1) % capacity` holds event `seq`. */
  private readonly streams: StreamId[] = [];
  private readonly messages: JSONRPCMessage[] = [];
  /** The sequence number of the last event stored (0: none yet). */
  private sequence = 0;

  /**
   * `capacity`: the most messages kept (across the session's streams), oldest dropped first; a
   * positive integer (else a `ConfigurationError`). Default 1000.
   */
  constructor(private readonly capacity = 1000) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new ConfigurationError(
        `BoundedSessionEventStore: capacity must be a positive integer (the most messages a session keeps), got ${capacity}`
      );
    }
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    return this.storeEventNow(streamId, message);
  }

  /**
   * `storeEvent`, answered at once: a writer that has its event id in the same turn writes the
   * event without waiting a promise for it (the front fast lane does, per progress notification).
   */
  storeEventNow(streamId: StreamId, message: JSONRPCMessage): EventId {
    const seq = ++this.sequence;
    const slot = (seq - 1) % this.capacity;
    this.streams[slot] = streamId;
    this.messages[slot] = message;
    return String(seq);
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    const seq = this.kept(eventId);
    return seq === undefined ? undefined : this.streams[(seq - 1) % this.capacity];
  }

  /** Sends, in order, the events of `lastEventId`'s stream that came after it; answers that stream's id. */
  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }
  ): Promise<StreamId> {
    const from = this.kept(lastEventId);
    if (from === undefined) throw new Error(`Unknown or expired event id ${lastEventId}`);
    const streamId = this.streams[(from - 1) % this.capacity];
    // Up to the last event stored now (what `send` makes the transport store meanwhile is not replayed),
    // and only while each is still kept (a long replay can be overtaken by new events).
    const last = this.sequence;
    for (let seq = from + 1; seq <= last && seq > this.sequence - this.capacity; seq++) {
      const slot = (seq - 1) % this.capacity;
      if (this.streams[slot] === streamId) await send(String(seq), this.messages[slot]);
    }
    return streamId;
  }

  /** The sequence number an event id names, when that event is still kept (the id is untrusted: it came off the wire). */
  private kept(eventId: EventId): number | undefined {
    if (typeof eventId !== 'string' || !/^[1-9]\d{0,15}$/.test(eventId)) return undefined;
    const seq = Number(eventId);
    return seq <= this.sequence && seq > this.sequence - this.capacity ? seq : undefined;
  }
}
