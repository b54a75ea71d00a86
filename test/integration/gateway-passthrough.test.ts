import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { Action, FusionApp, Interactive, ToolProvider, ask, proxy, proxyServers, readInput, requireInput } from '../../src';
import type { Gateway } from '../../src/advanced';

/**
 * What an upstream sends outside a call, and what its listing says, kept as given through the
 * gateway: its log messages between calls reach the front sessions at their own levels, a front
 * session's `logging/setLevel` is forwarded upstream, a roots request at its startup is answered
 * by the front session it serves (or refused, saying why), and a tool is listed as interactive
 * only where the upstream is known to ask, its `execution` kept. The upstream is a bare SDK v2
 * server run as a child over stdio (test/fixtures/passthrough-upstream.ts); the front clients
 * are real SDK clients of either era over the app's HTTP handler.
 */

// The compiled fixture (`npm test` compiles first, as for the other spawned fixtures).
const UPSTREAM = { command: process.execPath, args: [join(__dirname, '..', '..', 'build', 'test', 'fixtures', 'passthrough-upstream.js')] };

/** A front client and what reached it outside its requests. */
interface Front {
  readonly client: Client;
  /** `data` of each log message, in arrival order. */
  readonly logs: string[];
  /** Resolves once a log message whose data ends with `suffix` has come (counting from the `nth` such, 1-based). */
  logged(suffix: string, nth?: number): Promise<void>;
  /** Resolves once the next `notifications/tools/list_changed` has come. */
  listChanged(): Promise<void>;
  close(): Promise<void>;
}

async function connectFront(app: FusionApp, era: 'legacy' | 'modern', roots?: string[]): Promise<Front> {
  const handler = app.createHttpHandler();
  const client = new Client(
    { name: 'front', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} }, ...(roots ? { roots: {} } : {}) },
      versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' }
    }
  );
  if (roots) client.setRequestHandler('roots/list', () => Promise.resolve({ roots: roots.map((uri) => ({ uri })) }));
  client.setRequestHandler('elicitation/create', () => Promise.resolve({ action: 'accept' as const, content: { word: 'kept' } }));
  const waiters: Array<{ suffix: string; nth: number; resolve: () => void }> = [];
  const changes: Array<() => void> = [];
  const logs: string[] = [];
  const transport: Transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
    fetch: (url, init) => handler.fetch(new Request(url, init))
  });
  await client.connect(transport);
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ('method' in message && message.method === 'notifications/message') {
      logs.push(String((message.params as { data: unknown }).data));
      for (const waiter of [...waiters]) {
        if (logs.filter((data) => data.endsWith(waiter.suffix)).length < waiter.nth) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
    if ('method' in message && message.method === 'notifications/tools/list_changed') for (const resolve of changes.splice(0)) resolve();
    receive?.(message);
  };
  return {
    client,
    logs,
    logged: (suffix, nth = 1) =>
      logs.filter((data) => data.endsWith(suffix)).length >= nth
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push({ suffix, nth, resolve })),
    listChanged: () => new Promise<void>((resolve) => changes.push(resolve)),
    close: async () => {
      await client.close();
      await handler.close();
    }
  };
}

function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as Array<{ text?: string }>).map((block) => block.text ?? '').join('\n');
}

const call = async (front: Front, name: string) => textOf(await front.client.callTool({ name, arguments: {} }));

describe('an upstream shared by every front session (stdio, one connection)', () => {
  let gateway: Gateway;
  let app: FusionApp;
  const diagnostics: string[] = [];

  beforeAll(async () => {
    gateway = await proxy(UPSTREAM, { namespace: 'up', logger: (message) => diagnostics.push(message) });
    app = FusionApp.create({ name: 'front', version: '1.0.0', tools: [], gateways: [gateway], logger: () => undefined });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('logs between calls reach every 2025-era front session at its own level; the lowest level set is forwarded upstream', async () => {
    const a = await connectFront(app, 'legacy');
    const b = await connectFront(app, 'legacy');
    const modern = await connectFront(app, 'modern');
    try {
      const instance = await call(a, 'up.instance');
      // B asks for errors: the shared upstream is told `error`, and logs error and up, between calls.
      await b.client.setLoggingLevel('error');
      await Promise.all([a.logged(':emergency'), b.logged(':emergency')]);
      const first = ['error', 'critical', 'alert', 'emergency'].map((level) => `${instance}:${level}`);
      expect(b.logs).toEqual(first);
      // A set no level: it gets what the upstream sends (as the SDK's own logging does).
      expect(a.logs).toEqual(first);

      // A asks for info: the lowest level set is now info, which the upstream is told; B still gets errors only.
      await a.client.setLoggingLevel('info');
      await Promise.all([a.logged(':emergency', 2), b.logged(':emergency', 2)]);
      expect(a.logs.slice(4)).toEqual(
        ['info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'].map((level) => `${instance}:${level}`)
      );
      expect(b.logs.slice(4)).toEqual(first);
      expect(await call(a, 'up.levels')).toBe('error,info');

      // A 2026-07-28 client gets log messages only for a request that asked: nothing between calls.
      expect(modern.logs).toEqual([]);
    } finally {
      await Promise.all([a.close(), b.close(), modern.close()]);
    }
  }, 30_000);

  it.each(['legacy', 'modern'] as const)(
    'a roots request the upstream sent at startup is refused, saying why (the connection serves every front session): %s front',
    async (era) => {
      const front = await connectFront(app, era, ['file:///front']);
      try {
        expect(await call(front, 'up.seen_roots')).toMatch(
          /^refused: .*roots\/list outside a tool call: the upstream connection is shared by every front session/
        );
        expect(diagnostics.join('\n')).toMatch(/a roots request outside a call was refused/);
      } finally {
        await front.close();
      }
    }
  );

  it.each(['legacy', 'modern'] as const)(
    'a roots request during the one call in flight goes to its front client; one without roots is refused upstream, the call goes on (%s front)',
    async (era) => {
      // Over stdio the request names no call: it may be the upstream's own (server-everything asks 350 ms after it starts), so
      // the call it lands in is not failed for a capability its front client lacks.
      const [rooted, rootless] = await Promise.all([connectFront(app, era, ['file:///r1', 'file:///r2']), connectFront(app, era)]);
      try {
        expect(await call(rooted, 'up.roots_now')).toBe('file:///r1,file:///r2');
        const refused = await rootless.client.callTool({ name: 'up.roots_now', arguments: {} });
        expect(refused.isError).toBeFalsy();
        expect(textOf(refused)).toMatch(/^refused: .*did not declare the roots capability/);
        expect(gateway.waitingQuestions).toBe(0);
      } finally {
        await Promise.all([rooted.close(), rootless.close()]);
      }
    }
  );

  it.each(['legacy', 'modern'] as const)(
    'a tool is listed as interactive once it is seen asking; a task-required tool keeps its execution (%s front)',
    async (era) => {
      const front = await connectFront(app, era);
      try {
        const listed = async () => new Map((await front.client.listTools()).tools.map((tool) => [tool.name, tool]));
        let tools = await listed();
        // The protocol says nothing of what a tool may ask: no tool is claimed to ask before it is seen to.
        for (const name of ['up.plain', 'up.job']) expect(tools.get(name)?._meta?.['io.mcpfusion/interactive']).toBeUndefined();
        // 2026-07-28 deleted `execution` from the tool (the SDK strips it from a listing); a 2025-era listing keeps the upstream's.
        expect(tools.get('up.job')?.execution).toEqual(era === 'legacy' ? { taskSupport: 'required' } : undefined);
        expect(tools.get('up.plain')?.execution).toBeUndefined();

        // The question is forwarded all the same (the chain of every proxied tool can ask), and from then on the tool is listed as asking.
        const changed = era === 'legacy' && tools.get('up.asks')?._meta === undefined ? front.listChanged() : Promise.resolve();
        expect(await call(front, 'up.asks')).toBe('the word is kept');
        await changed;
        tools = await listed();
        expect(tools.get('up.asks')?._meta?.['io.mcpfusion/interactive']).toBe(true);
        expect(tools.get('up.plain')?._meta?.['io.mcpfusion/interactive']).toBeUndefined();
      } finally {
        await front.close();
      }
    }
  );
});

describe("an upstream per front session (stdio, one child per 2025-era front session's own connection)", () => {
  let gateway: Gateway;
  let app: FusionApp;

  beforeAll(async () => {
    gateway = await proxy(UPSTREAM, { namespace: 'up', sessions: 'per-front-session', logger: () => undefined });
    app = FusionApp.create({ name: 'front', version: '1.0.0', tools: [], gateways: [gateway], logger: () => undefined });
  });
  afterAll(async () => {
    await app?.close();
  });

  it("a front session's level goes to its own upstream, whose logs between calls reach that session alone", async () => {
    const a = await connectFront(app, 'legacy');
    const b = await connectFront(app, 'legacy');
    try {
      await a.client.setLoggingLevel('warning');
      await a.logged(':emergency');
      await b.client.setLoggingLevel('debug');
      await b.logged(':emergency');
      await a.client.setLoggingLevel('error');
      await a.logged(':emergency', 2);
      const [instanceA, instanceB] = [await call(a, 'up.instance'), await call(b, 'up.instance')];
      expect(instanceA).not.toBe(instanceB);
      expect(a.logs).toEqual([
        ...['warning', 'error', 'critical', 'alert', 'emergency'].map((level) => `${instanceA}:${level}`),
        ...['error', 'critical', 'alert', 'emergency'].map((level) => `${instanceA}:${level}`)
      ]);
      expect(b.logs).toEqual(
        ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'].map((level) => `${instanceB}:${level}`)
      );
      expect(await call(a, 'up.levels')).toBe('warning,error');
      expect(await call(b, 'up.levels')).toBe('debug');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 30_000);

  it("a roots request at the upstream's startup is answered with the roots of the front session it serves, and no other's", async () => {
    const a = await connectFront(app, 'legacy', ['file:///a']);
    const b = await connectFront(app, 'legacy', ['file:///b', 'file:///b2']);
    const none = await connectFront(app, 'legacy');
    // A 2026-07-28 front client has no session (and no channel outside its requests): it is served by the shared connection.
    const modern = await connectFront(app, 'modern', ['file:///modern']);
    try {
      expect(await call(a, 'up.seen_roots')).toBe('file:///a');
      expect(await call(b, 'up.seen_roots')).toBe('file:///b,file:///b2');
      expect(await call(none, 'up.seen_roots')).toMatch(
        /^refused: .*roots\/list outside a tool call: the front client declared no roots capability/
      );
      expect(await call(modern, 'up.seen_roots')).toMatch(/^refused: .*shared by every front session/);
    } finally {
      await Promise.all([a.close(), b.close(), none.close(), modern.close()]);
    }
  }, 30_000);
});

describe('an upstream of a config (proxyServers), connected before the app that serves it', () => {
  it("its logs between calls reach the front sessions, and a front session's level reaches it", async () => {
    const servers = await proxyServers({ mcpServers: { up: UPSTREAM } }, { watch: false, logger: () => undefined });
    const app = FusionApp.create({ name: 'front', version: '1.0.0', tools: [], gateways: [servers], logger: () => undefined });
    const front = await connectFront(app, 'legacy');
    try {
      const instance = await call(front, 'up.instance');
      await front.client.setLoggingLevel('critical');
      await front.logged(':emergency');
      expect(front.logs).toEqual(['critical', 'alert', 'emergency'].map((level) => `${instance}:${level}`));
      expect(await call(front, 'up.levels')).toBe('critical');
    } finally {
      await front.close();
      await app.close();
    }
  }, 30_000);
});

@ToolProvider()
class FrameworkUpstreamTools {
  @Action('plain', { description: 'Never asks' })
  plain() {
    return 'plain';
  }

  @Interactive()
  @Action('asks', { description: 'Asks for a word' })
  asks() {
    const word = readInput<string>('word');
    if (word === undefined) return requireInput.elicit('Which word?', { word: ask.string('Word') });
    return word;
  }
}

describe.each(['2025', '2026'] as const)('an upstream made with this framework (%s era)', (era) => {
  it.each(['legacy', 'modern'] as const)('its own word on which tools ask is listed from the start (%s front)', async (frontEra) => {
    const upstream = FusionApp.create({ name: 'upstream', version: '1.0.0', tools: [FrameworkUpstreamTools], logger: () => undefined });
    const { url } = await upstream.listen({ transport: 'http', port: 0, handleSignals: false });
    const gateway = await proxy(url!, { namespace: 'fw', era, logger: () => undefined });
    const app = FusionApp.create({ name: 'front', version: '1.0.0', tools: [], gateways: [gateway], logger: () => undefined });
    const front = await connectFront(app, frontEra);
    try {
      const tools = new Map((await front.client.listTools()).tools.map((tool) => [tool.name, tool]));
      expect(tools.get('fw.asks')?._meta?.['io.mcpfusion/interactive']).toBe(true);
      expect(tools.get('fw.plain')?._meta?.['io.mcpfusion/interactive']).toBeUndefined();
    } finally {
      await front.close();
      await app.close();
      await upstream.close();
    }
  });
});
