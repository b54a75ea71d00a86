import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { ErrorCode } from '../../../../src/errors';
import { BoundedSessionEventStore } from '../../../../src/transports/http/session-event-store';

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 't', progress: n }
});

describe('BoundedSessionEventStore', () => {
  it('replays what came after an event, on that event stream only', async () => {
    const store = new BoundedSessionEventStore();
    const a1 = await store.storeEvent('a', note(1));
    await store.storeEvent('b', note(2));
    const a3 = await store.storeEvent('a', note(3));
    const replayed: Array<[string, unknown]> = [];
    const stream = await store.replayEventsAfter(a1, { send: async (id, m) => void replayed.push([id, m]) });
    expect(stream).toBe('a');
    expect(replayed).toEqual([[a3, note(3)]]);
    expect(await store.getStreamIdForEventId(a3)).toBe('a');
  });

  it('keeps at most its capacity and refuses an event id it no longer has', async () => {
    const store = new BoundedSessionEventStore(2);
    const first = await store.storeEvent('a', note(1));
    await store.storeEvent('a', note(2));
    await store.storeEvent('a', note(3));
    await expect(store.replayEventsAfter(first, { send: async () => undefined })).rejects.toThrow(/Unknown or expired event id/);
    expect(await store.getStreamIdForEventId(first)).toBeUndefined();
  });

  it('replays across the ring wrapping, the oldest overwritten, the ids one sequence across streams', async () => {
    const store = new BoundedSessionEventStore(4);
    const ids: string[] = [];
    for (let n = 1; n <= 9; n++) ids.push(await store.storeEvent(n % 2 ? 'a' : 'b', note(n)));
    expect(ids).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    // Kept: 6..9. Event 5 is gone; 7 (stream a) replays 9, the one a-event after it.
    await expect(store.replayEventsAfter(ids[4], { send: async () => undefined })).rejects.toThrow(/Unknown or expired event id 5/);
    const replayed: Array<[string, unknown]> = [];
    expect(await store.replayEventsAfter(ids[6], { send: async (id, m) => void replayed.push([id, m]) })).toBe('a');
    expect(replayed).toEqual([['9', note(9)]]);
    expect(await store.getStreamIdForEventId('6')).toBe('b');
  });

  it('refuses event ids it never gave, whatever their shape', async () => {
    const store = new BoundedSessionEventStore();
    await store.storeEvent('a', note(1));
    for (const id of ['2', '0', '-1', '01', '1.0', ' 1', 'a:1', '', '99999999999999999999', 'constructor']) {
      expect(await store.getStreamIdForEventId(id)).toBeUndefined();
      await expect(store.replayEventsAfter(id, { send: async () => undefined })).rejects.toThrow(/Unknown or expired event id/);
    }
  });

  it('does not replay what is stored while it replays, nor an event overwritten meanwhile', async () => {
    const store = new BoundedSessionEventStore(3);
    await store.storeEvent('a', note(1));
    await store.storeEvent('a', note(2));
    await store.storeEvent('a', note(3));
    const replayed: string[] = [];
    // The first send stores three more events of the same stream: event 3 is overwritten before its turn.
    await store.replayEventsAfter('1', {
      send: async (id) => {
        replayed.push(id);
        for (let n = 10; n < 13; n++) await store.storeEvent('a', note(n));
      }
    });
    expect(replayed).toEqual(['2']);
  });

  it('refuses a capacity that is not a positive integer, as a configuration error', () => {
    for (const capacity of [0, -1, 1.5, Number.NaN]) {
      expect(() => new BoundedSessionEventStore(capacity)).toThrow(expect.objectContaining({ code: ErrorCode.CONFIGURATION }));
    }
  });
});
