import type { JSONRPCMessage } from '@modelcontextprotocol/server';
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
});
