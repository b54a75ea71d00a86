import { createServer } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  Action,
  Ctx,
  FusionApp,
  Interactive,
  ToolProvider,
  ask,
  progress,
  proxy,
  readInput,
  requireInput,
  type CallContext
} from '../../src';
import type { Gateway } from '../../src/advanced';
import { laneUpstream } from '../helpers/lane-upstream';
import { listenLoopback } from '../helpers/loopback-server';

/**
 * The front fast lane of 2026-07-28 (`frontLane: true`, src/transports/http/front-lane/modern-lane.ts):
 * a stateless `tools/call` served at the HTTP entry without the SDK's per-request server. Each case
 * runs on an endpoint with the lane and on one without, through real SDK 2026-07-28 clients (and,
 * where the bytes matter, raw HTTP requests), in front of a raw JSON-RPC upstream written for it;
 * the outcomes must be equal, and the lane's count shows it was taken (or that it was not).
 */

type Json = Record<string, unknown>;

@ToolProvider()
class AskingTools {
  @Interactive()
  @Action('confirm', { description: 'Asks before it answers' })
  confirm() {
    const approved = readInput<boolean>('approved');
    if (approved === undefined) return requireInput.elicit('Go ahead?', { approved: ask.boolean('Approve') }, { key: 'go' });
    return approved ? 'approved' : 'declined';
  }

  @Action('chatty', { description: 'Logs at two levels around its progress' })
  async *chatty(@Ctx() ctx: CallContext) {
    ctx.log.info('first');
    yield progress(50, 'half');
    ctx.log.debug('below the level');
    ctx.log.warning('second');
    return 'done';
  }
}

type Handler = ReturnType<FusionApp['createHttpHandler']>;

async function modernClient(handler: Handler, capabilities?: Json): Promise<Client> {
  const client = new Client(
    { name: 'front', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, ...(capabilities ? { capabilities } : {}) }
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) })
  );
  return client;
}

const ENVELOPE: Json = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }
};

/** A raw 2026-07-28 `tools/call` POST: its params and headers as given (the standard ones by default). */
function rawCall(params: Json, headers: Record<string, string | undefined> = {}, id: unknown = 7): Request {
  const name = typeof params.name === 'string' ? params.name : '';
  const sent: Record<string, string> = {};
  const all: Record<string, string | undefined> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': name,
    ...headers
  };
  for (const [key, value] of Object.entries(all)) if (value !== undefined) sent[key] = value;
  return new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: sent,
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { _meta: ENVELOPE, ...params } })
  });
}

/** What a raw answer is: its status, content type and body text. */
async function answerOf(response: Response): Promise<{ status: number; type: string | null; body: string }> {
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

describe('the front fast lane of 2026-07-28', () => {
  let upstream: Awaited<ReturnType<typeof laneUpstream>>;
  let gateway: Gateway;
  let app: FusionApp;
  let lane: Handler;
  let normal: Handler;
  let fast: Client;
  let slow: Client;

  beforeAll(async () => {
    upstream = await laneUpstream(['echo', 'work', 'hang', 'refuse', 'failing', 'shaped']);
    gateway = await proxy(upstream.url, { namespace: 'up', era: '2025', logger: () => undefined });
    app = FusionApp.create({ name: 'front', version: '1.0.0', tools: [AskingTools], gateways: [gateway], logger: () => undefined });
    lane = app.createHttpHandler({ frontLane: true });
    normal = app.createHttpHandler({ frontLane: false });
    fast = await modernClient(lane, { elicitation: { form: {} } });
    slow = await modernClient(normal, { elicitation: { form: {} } });
  });
  afterAll(async () => {
    await fast?.close();
    await slow?.close();
    await lane?.close();
    await normal?.close();
    await app?.close();
    await upstream?.close();
  });

  /** Runs `call` on both paths: the lane must serve `calls` requests (its count goes up so) and answer as the normal path does. */
  async function onBoth<T>(call: (client: Client) => Promise<T>, calls = 1): Promise<[T, T]> {
    const before = lane.frontLane!.served;
    const viaLane = await call(fast);
    expect(lane.frontLane!.served).toBe(before + calls);
    const viaNormal = await call(slow);
    return [viaLane, viaNormal];
  }

  /** Sends the same raw request to both endpoints: `laned` says whether the lane must take it. */
  async function rawOnBoth(
    make: () => Request,
    laned: boolean
  ): Promise<[Awaited<ReturnType<typeof answerOf>>, Awaited<ReturnType<typeof answerOf>>]> {
    const before = { ...lane.frontLane! };
    const viaLane = await answerOf(await lane.fetch(make()));
    expect(lane.frontLane!.served).toBe(before.served + (laned ? 1 : 0));
    expect(lane.frontLane!.passed).toBe(before.passed + (laned ? 0 : 1));
    const viaNormal = await answerOf(await normal.fetch(make()));
    return [viaLane, viaNormal];
  }

  it('answers a result as the normal path does, byte for byte (resultType, the server identity in _meta)', async () => {
    const [a, b] = await onBoth((c) => c.callTool({ name: 'up.echo', arguments: { text: 'héllo' } }));
    expect(a).toEqual(b);
    expect(a.content).toEqual([{ type: 'text', text: 'héllo' }]);
    const [raw, rawNormal] = await rawOnBoth(() => rawCall({ name: 'up.echo', arguments: { text: 'x' } }), true);
    expect(raw).toEqual(rawNormal);
    expect(raw.status).toBe(200);
    expect(JSON.parse(raw.body).result).toMatchObject({
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'front' } }
    });
    const [shaped, shapedNormal] = await rawOnBoth(() => rawCall({ name: 'up.shaped', arguments: { text: 'x' } }, {}, 'str-id'), true);
    expect(shaped).toEqual(shapedNormal);
  });

  it("answers a tool's error result, and an upstream JSON-RPC error, as the normal path does", async () => {
    const [a, b] = await onBoth((c) => c.callTool({ name: 'up.failing', arguments: { text: 'x' } }));
    expect(a).toEqual(b);
    expect(a.isError).toBe(true);
    const outcome = (client: Client) =>
      client.callTool({ name: 'up.refuse', arguments: { text: 'x' } }).then(
        (result) => ({ result }),
        (error: { code?: number; message?: string; data?: unknown }) => ({ code: error.code, message: error.message, data: error.data })
      );
    const [c, d] = await onBoth(outcome);
    expect(c).toEqual(d);
    expect(JSON.stringify(c)).toContain('not today');
    const [raw, rawNormal] = await rawOnBoth(() => rawCall({ name: 'up.refuse', arguments: { text: 'x' } }), true);
    expect(raw).toEqual(rawNormal);
  });

  it('answers arguments that do not fit the schema as the normal path does', async () => {
    const outcome = (client: Client) =>
      client.callTool({ name: 'up.echo', arguments: { text: 42 } }).then(
        (result) => ({ result }),
        (error: { code?: number; message?: string }) => ({ code: error.code, message: error.message })
      );
    const [a, b] = await onBoth(outcome);
    expect(a).toEqual(b);
    const [raw, rawNormal] = await rawOnBoth(() => rawCall({ name: 'up.echo', arguments: { text: 42 } }), true);
    expect(raw).toEqual(rawNormal);
  });

  it("streams the upstream's progress as given (value, total, message), in order, then the result, as the normal path does", async () => {
    const run = async (client: Client) => {
      const updates: unknown[] = [];
      const result = await client.callTool({ name: 'up.work', arguments: { text: 'x' } }, { onprogress: (update) => updates.push(update) });
      return { updates, result };
    };
    const [a, b] = await onBoth(run);
    expect(a).toEqual(b);
    expect(a.updates).toEqual([1, 2, 3].map((step) => ({ progress: step, total: 3, message: `step ${step}` })));
    const [raw, rawNormal] = await rawOnBoth(
      () => rawCall({ name: 'up.work', arguments: { text: 'x' }, _meta: { ...ENVELOPE, progressToken: 'p1' } }),
      true
    );
    expect(raw).toEqual(rawNormal);
    expect(raw.type).toBe('text/event-stream');
  });

  it("streams a tool's log messages at or above the envelope's level, in order with its progress, as the normal path does", async () => {
    const chatty = (level?: string) => () =>
      rawCall({
        name: 'chatty',
        arguments: {},
        _meta: { ...ENVELOPE, progressToken: 3, ...(level ? { 'io.modelcontextprotocol/logLevel': level } : {}) }
      });
    const [raw, rawNormal] = await rawOnBoth(chatty('info'), true);
    expect(raw).toEqual(rawNormal);
    expect(raw.body.match(/notifications\/message/g)).toHaveLength(2);
    // Without a level in the envelope: no log messages at all (2026-07-28).
    const [quiet, quietNormal] = await rawOnBoth(chatty(), true);
    expect(quiet).toEqual(quietNormal);
    expect(quiet.body).not.toContain('notifications/message');
  });

  it('serves an input_required round and its retry as the normal path does (the question, then the answer)', async () => {
    for (const client of [fast, slow])
      client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { approved: true } }));
    const [a, b] = await onBoth((c) => c.callTool({ name: 'confirm', arguments: {} }), 2);
    expect(a).toEqual(b);
    expect(a.content).toEqual([{ type: 'text', text: 'approved' }]);
    // The round itself, raw: the same question (its requestState is signed per call, so only its presence is compared).
    const question = async (handler: Handler) => {
      const body = JSON.parse(
        (
          await answerOf(
            await handler.fetch(
              rawCall({
                name: 'confirm',
                arguments: {},
                _meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } }
              })
            )
          )
        ).body
      );
      expect(typeof body.result.requestState).toBe('string');
      return { ...body, result: { ...body.result, requestState: 'signed' } };
    };
    expect(await question(lane)).toEqual(await question(normal));
    // A client that did not declare elicitation gets the same refusal on both.
    const [raw, rawNormal] = await rawOnBoth(() => rawCall({ name: 'confirm', arguments: {} }), true);
    expect(raw).toEqual(rawNormal);
  });

  it('cancels the upstream call when the client ends the request (the 2026-07-28 cancellation)', async () => {
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
    expect(upstream.seen.cancelled.length).toBeGreaterThan(0);
  });

  it('serves over node:http: a result, progress in order, and the client ending its request cancels the upstream call', async () => {
    const server = createServer((req, res) => void lane.serveNode(req, res));
    const { url, close } = await listenLoopback(server);
    const client = new Client({ name: 'front', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      await client.connect(new StreamableHTTPClientTransport(url));
      const before = lane.frontLane!.served;
      expect((await client.callTool({ name: 'up.echo', arguments: { text: 'wire' } })).content).toEqual([{ type: 'text', text: 'wire' }]);
      const updates: unknown[] = [];
      await client.callTool({ name: 'up.work', arguments: { text: 'x' } }, { onprogress: (update) => updates.push(update) });
      expect(updates).toEqual([1, 2, 3].map((step) => ({ progress: step, total: 3, message: `step ${step}` })));
      const arrived = new Promise<void>((resolve) => (upstream.seen.hanging = resolve));
      const closed = new Promise<void>((resolve) => (upstream.seen.onClosed = resolve));
      const abort = new AbortController();
      const call = client.callTool({ name: 'up.hang', arguments: { text: 'wire-cancel' } }, { signal: abort.signal });
      await arrived;
      abort.abort(new Error('enough'));
      await expect(call).rejects.toThrow();
      await closed;
      expect(upstream.seen.closed).toContain('wire-cancel');
      expect(lane.frontLane!.served).toBe(before + 3);
    } finally {
      await client.close();
      await close();
    }
  });

  it('ends its calls in flight when the endpoint closes, as the normal path does', async () => {
    for (const frontLane of [true, false]) {
      const handler = app.createHttpHandler({ frontLane });
      const arrived = new Promise<void>((resolve) => (upstream.seen.hanging = resolve));
      const closed = new Promise<void>((resolve) => (upstream.seen.onClosed = resolve));
      const text = `close-${frontLane}`;
      const answer = handler.fetch(rawCall({ name: 'up.hang', arguments: { text } })).then((response) => response.text());
      await arrived;
      await handler.close();
      await closed;
      expect(upstream.seen.closed).toContain(text);
      await answer;
      if (frontLane) expect(handler.frontLane!.served).toBe(1);
    }
  });

  it('leaves to the normal path what it does not exactly handle, which answers it as without the lane', async () => {
    const servedBefore = lane.frontLane!.served;
    const cases: Array<() => Request> = [
      // Header/body mismatches: the name, the method, the version; a header missing.
      () => rawCall({ name: 'up.echo', arguments: { text: 'x' } }, { 'mcp-name': 'up.other' }),
      () => rawCall({ name: 'up.echo', arguments: { text: 'x' } }, { 'mcp-method': 'tools/list' }),
      () => rawCall({ name: 'up.echo', arguments: { text: 'x' } }, { 'mcp-protocol-version': '2025-11-25' }),
      () => rawCall({ name: 'up.echo', arguments: { text: 'x' } }, { 'mcp-name': undefined }),
      // A malformed envelope, malformed arguments, an unknown tool, a task.
      () =>
        rawCall({ name: 'up.echo', arguments: { text: 'x' }, _meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': 'all' } }),
      () =>
        rawCall({ name: 'up.echo', arguments: { text: 'x' }, _meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': { name: 5 } } }),
      () => rawCall({ name: 'up.echo', arguments: { text: 'x' }, _meta: { ...ENVELOPE, 'io.modelcontextprotocol/logLevel': 'loud' } }),
      () => rawCall({ name: 'up.echo', arguments: ['x'] }),
      // A progress token that is not an integer.
      () => rawCall({ name: 'up.echo', arguments: { text: 'x' }, _meta: { ...ENVELOPE, progressToken: 1.5 } }),
      // A member a JSON-RPC request does not have.
      () => {
        const sent = rawCall({ name: 'up.echo', arguments: { text: 'x' } });
        return new Request(sent.url, {
          method: 'POST',
          headers: sent.headers,
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'up.echo', arguments: { text: 'x' }, _meta: ENVELOPE },
            extra: true
          })
        });
      },
      () => rawCall({ name: 'up.nothing', arguments: {} }),
      () => rawCall({ name: 'up.echo', arguments: { text: 'x' }, task: { ttl: 1000 } })
    ];
    for (const make of cases) {
      const [a, b] = await rawOnBoth(make, false);
      expect(a).toEqual(b);
    }
    // A caller with a token (auth), as a gate of its own verified it.
    const authInfo = { token: 't', clientId: 'c', scopes: [] };
    const [a, b] = await Promise.all(
      [lane, normal].map(async (handler) =>
        answerOf(await handler.fetch(rawCall({ name: 'up.echo', arguments: { text: 'x' } }), { authInfo }))
      )
    );
    expect(a).toEqual(b);
    expect(lane.frontLane!.served).toBe(servedBefore);
  });
});
