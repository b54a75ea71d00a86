import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FusionApp } from '../../src';
import { connectTestClient } from '../../src/testing';
import { LateTools, Names, SurfaceTools } from '../fixtures/surface-tools';
import { recordWire, until } from '../helpers/wire-log';

function makeApp() {
  return FusionApp.create({ tools: [SurfaceTools], providers: [{ provide: Names, useValue: new Names() }], stateKey: 'k'.repeat(32) });
}

const ERAS = ['modern', 'legacy-http', 'legacy-memory'] as const;

describe('resources', () => {
  for (const era of ERAS) {
    it(`${era}: lists, reads text and binary, reads templates, and refuses unknown URIs`, async () => {
      const app = makeApp();
      const { client, close } = await connectTestClient(app, { era });
      const { resources } = await client.listResources();
      expect(resources).toEqual([
        { uri: 'demo://readme', name: 'readme', title: 'Read me', description: 'A text resource', mimeType: 'text/plain' },
        { uri: 'demo://logo', name: 'logo', mimeType: 'image/png' },
        { uri: 'demo://items/1', name: 'Item 1' }
      ]);
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates).toEqual([
        { uriTemplate: 'demo://items/{id}', name: 'item', description: 'One item', mimeType: 'application/json' }
      ]);
      expect((await client.readResource({ uri: 'demo://readme' })).contents).toEqual([
        { uri: 'demo://readme', mimeType: 'text/plain', text: 'Hello from the readme.' }
      ]);
      const logo = (await client.readResource({ uri: 'demo://logo' })).contents[0] as { blob: string; mimeType: string };
      expect(logo.mimeType).toBe('image/png');
      expect(Buffer.from(logo.blob, 'base64').subarray(1, 4).toString()).toBe('PNG');
      expect((await client.readResource({ uri: 'demo://items/7' })).contents).toEqual([
        { uri: 'demo://items/7', mimeType: 'application/json', text: '{"id":"7","label":"Item 7"}' }
      ]);
      await expect(client.readResource({ uri: 'demo://items/404' })).rejects.toMatchObject({ code: -32602 });
      await expect(client.readResource({ uri: 'demo://nope' })).rejects.toMatchObject({ code: -32602, data: { uri: 'demo://nope' } });
      await expect(client.readResource({ uri: 'demo://items/abc' })).rejects.toThrow(/id must be digits/);
      await close();
      await app.close();
    });
  }

  it('2025-era subscriptions: only subscribers get notifications/resources/updated', async () => {
    const app = makeApp();
    const a = await connectTestClient(app, { era: 'legacy-memory' });
    const b = await connectTestClient(app, { era: 'legacy-memory' });
    const logA = recordWire(a.client);
    const logB = recordWire(b.client);
    await a.client.subscribeResource({ uri: 'demo://readme' });
    app.notifyResourceUpdated('demo://readme');
    await until(() => logA.some((m) => m.method === 'notifications/resources/updated'), 'the update');
    expect(logA.find((m) => m.method === 'notifications/resources/updated')!.params).toEqual({ uri: 'demo://readme' });
    await a.client.unsubscribeResource({ uri: 'demo://readme' });
    app.notifyResourceUpdated('demo://readme');
    await a.client.listTools(); // a round trip after the second notify
    expect(logA.filter((m) => m.method === 'notifications/resources/updated')).toHaveLength(1);
    expect(logB.filter((m) => m.method === 'notifications/resources/updated')).toHaveLength(0);
    await a.close();
    await b.close();
    await app.close();
  });
});

describe('prompts and completions', () => {
  for (const era of ERAS) {
    it(`${era}: lists prompts with arguments, renders them, validates arguments, completes`, async () => {
      const app = makeApp();
      const { client, close } = await connectTestClient(app, { era, answers: { context: 'billing' } });
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name)).toEqual(['greeting', 'rich', 'asks']);
      expect(prompts[0]).toEqual({
        name: 'greeting',
        title: 'Greeting',
        description: 'Greets someone',
        arguments: [{ name: 'name', description: 'Who to greet', required: true }]
      });
      expect((await client.getPrompt({ name: 'greeting', arguments: { name: 'Ada' } })).messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Please greet Ada warmly.' } }
      ]);
      await expect(client.getPrompt({ name: 'greeting', arguments: { name: '' } })).rejects.toThrow(
        /Invalid arguments for prompt greeting: name/
      );
      await expect(client.getPrompt({ name: 'missing' })).rejects.toThrow(/Unknown prompt: missing/);
      const rich = await client.getPrompt({ name: 'rich' });
      expect(rich.messages.map((m) => m.content.type)).toEqual(['image', 'resource']);
      expect((await client.getPrompt({ name: 'asks' })).messages[0].content).toEqual({ type: 'text', text: 'Context: billing' });
      const names = await client.complete({ ref: { type: 'ref/prompt', name: 'greeting' }, argument: { name: 'name', value: 'a' } });
      expect(names.completion).toEqual({ values: ['ada', 'alan'], total: 2, hasMore: false });
      const ids = await client.complete({ ref: { type: 'ref/resource', uri: 'demo://items/{id}' }, argument: { name: 'id', value: '' } });
      expect(ids.completion.values).toEqual(['1', '2', '10']);
      await close();
      await app.close();
    });
  }
});

describe('logging', () => {
  it('2025 era: the context logger honours logging/setLevel and arrives before the response', async () => {
    const app = makeApp();
    const { client, close } = await connectTestClient(app, { era: 'legacy-memory' });
    const log = recordWire(client);
    await client.setLoggingLevel('info');
    await client.callTool({ name: 'logs', arguments: {} });
    const messages = log.filter((m) => m.method === 'notifications/message').map((m) => [m.params!.level, m.params!.data]);
    expect(messages).toEqual([
      ['info', 'started'],
      ['warning', 'done']
    ]);
    const responseIndex = log.findIndex((m) => m.result !== undefined && (m.result as { content?: unknown }).content !== undefined);
    expect(log.map((m) => m.method).lastIndexOf('notifications/message')).toBeLessThan(responseIndex);
    await close();
    await app.close();
  });

  it('2026 era: no logLevel in the request, no messages', async () => {
    const app = makeApp();
    const { client, close } = await connectTestClient(app, { era: 'modern' });
    const log = recordWire(client);
    await client.callTool({ name: 'logs', arguments: {} });
    expect(log.filter((m) => m.method === 'notifications/message')).toEqual([]);
    await close();
    await app.close();
  });
});

describe('required client capabilities', () => {
  it('refuses a tool whose required capability the client did not declare with -32021 (HTTP 400 on 2026)', async () => {
    const app = makeApp();
    const { url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL };
    const plain = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await plain.connect(new StreamableHTTPClientTransport(url));
    await expect(plain.callTool({ name: 'needs.sampling', arguments: {} })).rejects.toMatchObject({ code: -32021 });
    const able = new Client(
      { name: 't', version: '1' },
      { capabilities: { sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } }
    );
    able.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'x' }, model: 'm' }));
    await able.connect(new StreamableHTTPClientTransport(url));
    expect((await able.callTool({ name: 'needs.sampling', arguments: {} })).content).toEqual([{ type: 'text', text: 'sampled' }]);
    await Promise.all([plain.close(), able.close()]);
    await app.close();
  });
});

describe('run-time changes', () => {
  it('adding and removing tool classes updates the lists and notifies connected clients (list_changed)', async () => {
    const app = makeApp();
    const { client, close } = await connectTestClient(app, { era: 'legacy-memory' });
    const log = recordWire(client);
    app.addTools(LateTools);
    await until(() => log.some((m) => m.method === 'notifications/tools/list_changed'), 'tools/list_changed');
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('late');
    expect((await app.callTool('late')).content).toEqual([{ type: 'text', text: 'late' }]);
    app.removeTools(LateTools);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('late');
    await expect(app.callTool('late')).rejects.toThrow(/Unknown tool: late/);
    await close();
    await app.close();
  });

  it('the deprecated names addProviders, hasProvider and removeProviders still change the tool classes', async () => {
    const app = makeApp();
    app.addProviders(LateTools);
    expect(app.hasProvider(LateTools)).toBe(true);
    expect(app.hasTools(LateTools)).toBe(true);
    expect((await app.callTool('late')).content).toEqual([{ type: 'text', text: 'late' }]);
    app.removeProviders(LateTools);
    expect(app.hasProvider(LateTools)).toBe(false);
    await expect(app.callTool('late')).rejects.toThrow(/Unknown tool: late/);
    await app.close();
  });
});

describe('interactive prompts and untrusted state', () => {
  it('a forged requestState on prompts/get is refused with -32602', async () => {
    const app = makeApp();
    const { client, close } = await connectTestClient(app, { era: 'modern' });
    await expect(
      client.request({ method: 'prompts/get', params: { name: 'asks', requestState: 'forged' } } as never)
    ).rejects.toMatchObject({ code: -32602 });
    await close();
    await app.close();
  });
});
