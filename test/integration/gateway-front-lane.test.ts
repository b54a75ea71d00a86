import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { Action, Ctx, FusionApp, ToolProvider, proxy, type CallContext } from '../../src';
import { BoundedSessionEventStore, type Gateway } from '../../src/advanced';
import { UPSTREAM_LIMITS } from '../../src/gateway/guards/limits';
import { laneUpstream } from '../helpers/lane-upstream';

/**
 * The front fast lane (`frontLane: true`, src/transports/http/front-lane/): a 2025-era session's
 * proxied `tools/call` served without the SDK server's per-request work. Each case runs twice, on
 * an endpoint with the lane and on one without, through real SDK clients, in front of a raw
 * JSON-RPC upstream written for it; the outcomes must be equal, and the lane's count shows it was
 * taken (or, for a client that can be asked mid-call and a 2026-07-28 client, that it was not).
 */

type Json = Record<string, unknown>;

type Handler = ReturnType<FusionApp['createHttpHandler']>;

/** The session's own event store, saying what it kept: a test waits for an event stored while its client is away. */
class WatchedStore extends BoundedSessionEventStore {
  constructor(private readonly onStored: (message: JSONRPCMessage) => void) {
    super();
  }

  override async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const eventId = await super.storeEvent(streamId, message);
    this.onStored(message);
    return eventId;
  }
}

/** An endpoint over node:http and a client whose call stream the test drops, and whose reconnection it runs when it chooses. */
interface Dropping {
  readonly client: Client;
  readonly handler: Handler;
  /** Last-Event-ID of each resuming GET the client sent. */
  readonly resumedFrom: string[];
  /** Ends the connection of the `tools/call` POST in flight, as a network failure would (the client sees its stream fail). */
  drop(): void;
  /** The client's next reconnection of a dropped stream (not run until the test runs it). */
  nextReconnect(): Promise<() => void>;
  /** Resolves once the session's store holds progress `n` (or, with `'response'`, the call's response). */
  stored(n: number | 'response'): Promise<void>;
  close(): Promise<void>;
}

async function dropping(app: FusionApp, frontLane: boolean): Promise<Dropping> {
  const kept = new Set<number | 'response'>();
  let keptWaiters: Array<() => void> = [];
  const handler = app.createHttpHandler({
    frontLane,
    sessions: {
      eventStore: () =>
        new WatchedStore((message) => {
          const progress = ((message as { params?: { progress?: unknown } }).params ?? {}).progress;
          if ('result' in message || 'error' in message) kept.add('response');
          else if (typeof progress === 'number') kept.add(progress);
          else return;
          const waiters = keptWaiters;
          keptWaiters = [];
          for (const wake of waiters) wake();
        })
    }
  });
  const server = createServer((req, res) => void handler.serveNode(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const resumedFrom: string[] = [];
  let callConnection: AbortController | undefined;
  let takeReconnect: ((reconnect: () => void) => void) | undefined;
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
    fetch: (url, init) => {
      const lastEventId = new Headers(init?.headers).get('last-event-id');
      if (init?.method === 'GET' && lastEventId) resumedFrom.push(lastEventId);
      if (init?.method !== 'POST' || typeof init.body !== 'string' || !init.body.includes('"tools/call"')) return fetch(url, init);
      callConnection = new AbortController();
      return fetch(url, { ...init, signal: init.signal ? AbortSignal.any([init.signal, callConnection.signal]) : callConnection.signal });
    },
    // The first attempt waits for the test; one refused because the server had not yet seen the drop (409) is tried again at once.
    reconnectionScheduler: (reconnect, _delay, attempt) => {
      if (attempt > 0 || !takeReconnect) return void setImmediate(reconnect);
      takeReconnect(reconnect);
      takeReconnect = undefined;
    },
    reconnectionOptions: { initialReconnectionDelay: 1, maxReconnectionDelay: 1, reconnectionDelayGrowFactor: 1, maxRetries: 50 }
  });
  const client = new Client({ name: 'front', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  await client.connect(transport);
  return {
    client,
    handler,
    resumedFrom,
    drop: () => callConnection!.abort(new Error('the network went away')),
    nextReconnect: () => new Promise((resolve) => (takeReconnect = resolve)),
    stored: (n) =>
      new Promise<void>((resolve) => {
        const check = (): void => void (kept.has(n) ? resolve() : keptWaiters.push(check));
        check();
      }),
    close: async () => {
      await client.close();
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  };
}

/** Progress updates as a call receives them, and a wait for the n-th. */
function progressLog(): { updates: unknown[]; onprogress: (update: unknown) => void; reached(n: number): Promise<void> } {
  const updates: unknown[] = [];
  let waiters: Array<() => void> = [];
  return {
    updates,
    onprogress: (update) => {
      updates.push(update);
      const woken = waiters;
      waiters = [];
      for (const wake of woken) wake();
    },
    reached: (n) =>
      new Promise<void>((resolve) => {
        const check = (): void => void (updates.length >= n ? resolve() : waiters.push(check));
        check();
      })
  };
}

async function clientOf(handler: Handler, era: 'legacy' | 'modern', capabilities?: Json): Promise<Client> {
  const client = new Client(
    { name: 'front', version: '1.0.0' },
    { versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' }, ...(capabilities ? { capabilities } : {}) }
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) })
  );
  return client;
}

describe('the front fast lane of a 2025-era session', () => {
  let upstream: Awaited<ReturnType<typeof laneUpstream>>;
  let gateway: Gateway;
  let app: FusionApp;
  let lane: Handler;
  let normal: Handler;
  let fast: Client;
  let slow: Client;

  beforeAll(async () => {
    upstream = await laneUpstream(['echo', 'work', 'hang', 'crash', 'huge', 'refuse', 'failing', 'steps']);
    gateway = await proxy(upstream.url, { namespace: 'up', era: '2025', logger: () => undefined });
    app = FusionApp.create({ name: 'front', version: '1.0.0', tools: [], gateways: [gateway], logger: () => undefined });
    lane = app.createHttpHandler({ frontLane: true });
    normal = app.createHttpHandler({ frontLane: false });
    fast = await clientOf(lane, 'legacy');
    slow = await clientOf(normal, 'legacy');
  });
  afterAll(async () => {
    await fast?.close();
    await slow?.close();
    await lane?.close();
    await normal?.close();
    await app?.close();
    await upstream?.close();
  });

  /** Runs `call` on both paths: the lane must serve it (its count goes up by one) and answer as the normal path does. */
  async function onBoth<T>(call: (client: Client) => Promise<T>): Promise<[T, T]> {
    const before = lane.frontLane!.served;
    const viaLane = await call(fast);
    expect(lane.frontLane!.served).toBe(before + 1);
    const viaNormal = await call(slow);
    expect(normal.frontLane).toBeUndefined();
    return [viaLane, viaNormal];
  }

  it('answers a result as the normal path does', async () => {
    const [a, b] = await onBoth((c) => c.callTool({ name: 'up.echo', arguments: { text: 'héllo' } }));
    expect(a).toEqual(b);
    expect(a.content).toEqual([{ type: 'text', text: 'héllo' }]);
  });

  it("answers a tool's error result, and an upstream JSON-RPC error, as the normal path does", async () => {
    const [a, b] = await onBoth((c) => c.callTool({ name: 'up.failing', arguments: { text: 'x' } }));
    expect(a).toEqual(b);
    expect(a.isError).toBe(true);
    const [c, d] = await onBoth((client) => client.callTool({ name: 'up.refuse', arguments: { text: 'x' } }));
    expect(c).toEqual(d);
    expect(JSON.stringify(c)).toContain('not today');
  });

  it('answers arguments that do not fit the schema (-32602) as the normal path does', async () => {
    const outcome = (client: Client) =>
      client.callTool({ name: 'up.echo', arguments: { text: 42 } }).then(
        (result) => ({ result }),
        (error: { code?: number; message?: string }) => ({ code: error.code, message: error.message })
      );
    const [a, b] = await onBoth(outcome);
    expect(a).toEqual(b);
    expect(JSON.stringify(a)).toMatch(/-32602|text/);
  });

  it("passes the upstream's progress as given (value, total, message), in order, before the result", async () => {
    const run = async (client: Client) => {
      const updates: unknown[] = [];
      const result = await client.callTool({ name: 'up.work', arguments: { text: 'x' } }, { onprogress: (update) => updates.push(update) });
      return { updates, result };
    };
    const [a, b] = await onBoth(run);
    expect(a).toEqual(b);
    expect(a.updates).toEqual([1, 2, 3].map((step) => ({ progress: step, total: 3, message: `step ${step}` })));
  });

  it("cancels the upstream call when the front client cancels (its notifications/cancelled reaches the lane's call)", async () => {
    const arrived = new Promise<void>((resolve) => (upstream.seen.hanging = resolve));
    const abort = new AbortController();
    const before = lane.frontLane!.served;
    const call = fast.callTool({ name: 'up.hang', arguments: { text: 'lane-cancel' } }, { signal: abort.signal });
    await arrived;
    expect(lane.frontLane!.served).toBe(before + 1);
    const closed = new Promise<void>((resolve) => (upstream.seen.onClosed = resolve));
    abort.abort(new Error('changed my mind'));
    await expect(call).rejects.toThrow();
    await closed;
    expect(upstream.seen.closed).toContain('lane-cancel');
    // The 2025-era upstream is told too, as the normal path tells it.
    expect(upstream.seen.cancelled.length).toBeGreaterThan(0);
  });

  it('cancels the upstream call when the front connection drops before anything of the answer went out (its client holds no event id to resume with; over node:http)', async () => {
    const server = createServer((req, res) => void lane.serveNode(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`));
    const client = new Client({ name: 'front', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
    try {
      await client.connect(transport);
      const arrived = new Promise<void>((resolve) => (upstream.seen.hanging = resolve));
      const closed = new Promise<void>((resolve) => (upstream.seen.onClosed = resolve));
      const before = lane.frontLane!.served;
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 'drop-1',
        method: 'tools/call',
        params: { name: 'up.hang', arguments: { text: 'lane-drop' } }
      });
      const sent = httpRequest({
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': transport.sessionId!,
          'mcp-protocol-version': client.getNegotiatedProtocolVersion()!
        }
      });
      sent.on('error', () => undefined);
      sent.end(body);
      await arrived;
      expect(lane.frontLane!.served).toBe(before + 1);
      sent.destroy();
      await closed;
      expect(upstream.seen.closed).toContain('lane-drop');
    } finally {
      await client.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  /** The next `steps` call's controls, once it reached the upstream. */
  function nextSteps(): Promise<{ step(n: number): void; finish(): void }> {
    return new Promise((resolve) => (upstream.seen.stepping = resolve));
  }

  it('resumes a call whose stream dropped mid-call: the client reconnects with Last-Event-ID and gets the rest in order, nothing twice, as on the normal path', async () => {
    const run = async (frontLane: boolean) => {
      const d = await dropping(app, frontLane);
      try {
        const log = progressLog();
        const arrived = nextSteps();
        const call = d.client.callTool({ name: 'up.steps', arguments: { text: 'resumed' } }, { onprogress: log.onprogress });
        const steps = await arrived;
        await log.reached(1);
        const reconnecting = d.nextReconnect();
        d.drop();
        const reconnect = await reconnecting;
        // Progress 2 comes while the client is away: it is kept, not lost, and the call runs on.
        const second = d.stored(2);
        steps.step(2);
        await second;
        reconnect();

        steps.step(3);
        steps.finish();
        const result = await call;
        return { updates: log.updates, result, resumed: d.resumedFrom.length, served: d.handler.frontLane?.served ?? 0 };
      } finally {
        await d.close();
      }
    };
    const viaLane = await run(true);
    const viaNormal = await run(false);
    expect(viaLane.served).toBe(1);
    expect(viaNormal.served).toBe(0);
    expect(viaLane.updates).toEqual([1, 2, 3].map((progress) => ({ progress, total: 3 })));
    expect(viaLane.updates).toEqual(viaNormal.updates);
    expect(viaLane.result).toEqual(viaNormal.result);
    expect(viaLane.result.content).toEqual([{ type: 'text', text: 'done resumed' }]);
    // Resumed (more than once only where the server had not yet seen the drop and answered 409, as the SDK's transport does).
    expect(viaLane.resumed).toBeGreaterThanOrEqual(1);
    expect(viaNormal.resumed).toBeGreaterThanOrEqual(1);
    // Neither path took the drop for a cancellation: the upstream call was never closed early.
    expect(upstream.seen.closed).not.toContain('resumed');
  });

  it('replays a call that ended while its client was away, response and all, when the client comes back (as on the normal path)', async () => {
    const run = async (frontLane: boolean) => {
      const d = await dropping(app, frontLane);
      try {
        const log = progressLog();
        const arrived = nextSteps();
        const call = d.client.callTool({ name: 'up.steps', arguments: { text: 'ended-away' } }, { onprogress: log.onprogress });
        const steps = await arrived;
        await log.reached(1);
        const reconnecting = d.nextReconnect();
        d.drop();
        const reconnect = await reconnecting;
        const answered = d.stored('response');
        steps.step(2);
        steps.step(3);
        steps.finish();
        await answered;
        reconnect();
        const result = await call;
        return { updates: log.updates, result, served: d.handler.frontLane?.served ?? 0 };
      } finally {
        await d.close();
      }
    };
    const viaLane = await run(true);
    const viaNormal = await run(false);
    expect(viaLane.served).toBe(1);
    expect(viaLane.updates).toEqual([1, 2, 3].map((progress) => ({ progress, total: 3 })));
    expect(viaLane.updates).toEqual(viaNormal.updates);
    expect(viaLane.result).toEqual(viaNormal.result);
    expect(viaLane.result.content).toEqual([{ type: 'text', text: 'done ended-away' }]);
  });

  it('cancels a call whose stream dropped when its client then cancels it (notifications/cancelled), as on the normal path', async () => {
    for (const frontLane of [true, false]) {
      const d = await dropping(app, frontLane);
      const label = `cancel-after-drop-${frontLane ? 'lane' : 'normal'}`;
      try {
        const log = progressLog();
        const abort = new AbortController();
        const arrived = nextSteps();
        const call = d.client.callTool(
          { name: 'up.steps', arguments: { text: label } },
          { signal: abort.signal, onprogress: log.onprogress }
        );
        await arrived;
        await log.reached(1);
        const reconnecting = d.nextReconnect();
        d.drop();
        await reconnecting; // the client is away and would come back; it cancels instead
        expect(upstream.seen.closed).not.toContain(label);
        const closed = new Promise<void>((resolve) => (upstream.seen.onClosed = resolve));
        const cancelledBefore = upstream.seen.cancelled.length;
        abort.abort(new Error('no longer needed'));
        await expect(call).rejects.toThrow();
        await closed;
        expect(upstream.seen.closed).toContain(label);
        expect(upstream.seen.cancelled.length).toBeGreaterThan(cancelledBefore);
        expect(d.handler.frontLane?.served ?? 0).toBe(frontLane ? 1 : 0);
      } finally {
        await d.close();
      }
    }
  });

  it('ends the call with an error when the upstream dies mid-call, as the normal path does', async () => {
    const [a, b] = await onBoth((c) => c.callTool({ name: 'up.crash', arguments: { text: 'x' } }));
    expect(a).toEqual(b);
    expect(a.isError).toBe(true);
  });

  it('refuses an answer over the bound as the normal path does, and serves the next call', async () => {
    const [a, b] = await onBoth((c) => c.callTool({ name: 'up.huge', arguments: { text: 'x' } }));
    expect(a).toEqual(b);
    expect(JSON.stringify(a)).toContain(`over ${UPSTREAM_LIMITS.maxMessageBytes} bytes`);
    await onBoth((c) => c.callTool({ name: 'up.echo', arguments: { text: 'again' } }));
  });

  it('leaves to the normal path an unknown tool and a client that can be asked mid-call (2026-07-28 clients: gateway-front-lane-2026.test.ts)', async () => {
    const passedBefore = lane.frontLane!.passed;
    const servedBefore = lane.frontLane!.served;
    const unknown = (client: Client) => client.callTool({ name: 'up.nothing', arguments: {} }).catch((error: Error) => error.message);
    expect(await unknown(fast)).toEqual(await unknown(slow));
    const asking = await clientOf(lane, 'legacy', { elicitation: {} });
    try {
      expect((await asking.callTool({ name: 'up.echo', arguments: { text: 'a' } })).content).toEqual([{ type: 'text', text: 'a' }]);
    } finally {
      await asking.close();
    }
    expect(lane.frontLane!.served).toBe(servedBefore);
    expect(lane.frontLane!.passed).toBeGreaterThanOrEqual(passedBefore + 2);
  });
});

@ToolProvider()
class ChattyTools {
  @Action('chatty', { description: 'Logs at three levels' })
  chatty(@Ctx() ctx: CallContext) {
    ctx.log.debug('below every level set here');
    ctx.log.info('at info');
    ctx.log.error('at error');
    return 'done';
  }
}

describe("the 2025-era lane filters a call's log messages by the session's level", () => {
  it('sends what `logging/setLevel` lets through, as the normal path does, before and after the level is set', async () => {
    const app = FusionApp.create({ name: 'front', version: '1.0.0', tools: [ChattyTools], logger: () => undefined });
    const lane = app.createHttpHandler({ frontLane: true });
    const normal = app.createHttpHandler({ frontLane: false });
    const clients = [await clientOf(lane, 'legacy'), await clientOf(normal, 'legacy')];
    const heard = clients.map(() => [] as string[]);
    clients.forEach((client, i) =>
      client.setNotificationHandler('notifications/message', (notification) => void heard[i]!.push(String(notification.params.data)))
    );
    try {
      const round = async (): Promise<string[][]> => {
        for (const list of heard) list.length = 0;
        for (const client of clients)
          expect((await client.callTool({ name: 'chatty', arguments: {} })).content).toEqual([{ type: 'text', text: 'done' }]);
        return heard.map((list) => [...list]);
      };
      const before = lane.frontLane!.served;
      const unset = await round();
      expect(unset[0]).toEqual(unset[1]);
      expect(unset[0]).toEqual(['below every level set here', 'at info', 'at error']);
      for (const client of clients) await client.setLoggingLevel('warning');
      const set = await round();
      expect(set[0]).toEqual(set[1]);
      expect(set[0]).toEqual(['at error']);
      expect(lane.frontLane!.served).toBe(before + 2);
    } finally {
      for (const client of clients) await client.close();
      await lane.close();
      await normal.close();
      await app.close();
    }
  });
});
