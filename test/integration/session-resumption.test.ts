/**
 * A 2025-era session's call stream is resumable through the default event store: a tool that closes its own stream
 * mid-call (`ctx.closeStream`, the polling pattern of SEP-1699) is finished by the client reconnecting with
 * `Last-Event-ID`: the progress sent while it was away is replayed, in order, before the result. A real SDK client over
 * HTTP on 127.0.0.1 (`app.listen`, the Node entry), both before and after the session's store has wrapped its ring;
 * on the normal path and on the front fast lane in both its forms (the default, and `frontLane: true`), whose streams are
 * stored and resumed the same way.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Action, Ctx, FusionApp, ToolProvider, progress, type CallContext } from '../../src';
import { BoundedSessionEventStore } from '../../src/advanced';

/** Resolved when the client has sent its reconnecting GET (the test's fetch sees it leave). */
let reconnected: () => void = () => undefined;
let onReconnect = Promise.resolve();

@ToolProvider()
class Resumable {
  @Action('resumable.steps', { description: 'Reports progress, closes its stream, reports more once the client is back, then answers.' })
  async *steps(@Ctx() ctx: CallContext) {
    yield progress({ progress: 1, total: 4 });
    yield progress({ progress: 2, total: 4 });
    ctx.closeStream?.();
    yield progress({ progress: 3, total: 4, message: 'while away' });
    await onReconnect;
    yield progress({ progress: 4, total: 4 });
    return 'done';
  }

  @Action('resumable.noise', { description: 'Ten progress notifications, to fill the session event store.' })
  async *noise() {
    for (let i = 1; i <= 10; i++) yield progress(i * 10);
    return 'noise';
  }
}

describe.each([
  ['the normal path', false],
  ['the front fast lane (the default: streamed as the normal path)', undefined],
  ["the front fast lane (the gateway's form: quick calls as JSON)", true]
] as const)('2025-era session streams resume with Last-Event-ID (default event store), %s', (_path, frontLane) => {
  const logged: string[] = [];
  const app = FusionApp.create({ name: 'resumption', version: '1.0.0', tools: [Resumable], logger: (line) => logged.push(line) });
  let url: URL;
  let closed = false;
  const lastEventIds: string[] = [];

  beforeAll(async () => {
    // A small store (the ring wraps within the test) and a short retry, so the client comes back at once.
    ({ url } = (await app.listen({
      transport: 'http',
      port: 0,
      handleSignals: false,
      ...(frontLane !== undefined ? { frontLane } : {}),
      sessions: { retryIntervalMs: 5, eventStore: () => new BoundedSessionEventStore(25) }
    })) as { url: URL });
  });
  afterAll(() => (closed ? undefined : app.close()));

  async function connect(): Promise<Client> {
    const client = new Client({ name: 'resumer', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
    const transport = new StreamableHTTPClientTransport(url, {
      fetch: async (input, init) => {
        const id = new Headers(init?.headers).get('last-event-id');
        if ((init?.method ?? 'GET') === 'GET' && id !== null) {
          lastEventIds.push(id);
          reconnected();
        }
        return fetch(input, init);
      }
    });
    await client.connect(transport);
    return client;
  }

  for (const [name, before] of [
    ['on a fresh session', 0],
    ['after the store has wrapped', 4]
  ] as const) {
    it(`${name}: the progress sent while away is replayed in order, before the result`, async () => {
      onReconnect = new Promise((resolve) => (reconnected = resolve));
      const client = await connect();
      for (let i = 0; i < before; i++) {
        expect((await client.callTool({ name: 'resumable.noise', arguments: {} }, { onprogress: () => undefined })).content).toEqual([
          { type: 'text', text: 'noise' }
        ]);
      }
      const seen: Array<[number, string | undefined]> = [];
      const result = await client.callTool(
        { name: 'resumable.steps', arguments: {} },
        { onprogress: (p) => seen.push([p.progress, p.message]), resetTimeoutOnProgress: true }
      );
      expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
      expect(seen).toEqual([
        [1, undefined],
        [2, undefined],
        [3, 'while away'],
        [4, undefined]
      ]);
      // The id the client resumed from is one the store gave: a sequence number of the session.
      expect(lastEventIds.at(-1)).toMatch(/^[1-9]\d*$/);
      await client.close();
    });
  }

  if (frontLane) {
    it('served those calls on the lane (its count, logged when the endpoint closes)', async () => {
      closed = true;
      await app.close();
      const counts = logged.find((line) => line.includes('front lane:'));
      expect(counts).toMatch(/front lane: 6 calls served/);
    });
  }
});
