import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Action, FusionApp, ToolProvider, mount, proxy } from '../../src';
import type { Gateway } from '../../src/advanced';
import { Names, SurfaceTools } from '../fixtures/surface-tools';

/**
 * What a served tool or prompt names (resource links, embedded resources) reads back through the
 * app in front: behind a gateway (an upstream on 127.0.0.1 over HTTP, in either upstream era) and
 * mounted, a real SDK client in either front era calls the tool, then reads each URI it was given.
 */

/** Returns a link to a templated item, a link to a fixed resource, and the readme embedded. */
@ToolProvider()
class LinkTools {
  @Action('links', { description: 'Links to resources this server serves' })
  links() {
    return {
      content: [
        { type: 'text', text: 'two links and one embedded resource' },
        { type: 'resource_link', uri: 'demo://items/7', name: 'Item 7', mimeType: 'application/json' },
        { type: 'resource_link', uri: 'demo://readme', name: 'readme' },
        { type: 'resource', resource: { uri: 'demo://readme', mimeType: 'text/plain', text: 'Hello from the readme.' } }
      ]
    };
  }
}

const upstreamApp = () =>
  FusionApp.create({ name: 'upstream', version: '1.0.0', tools: [SurfaceTools, LinkTools], providers: [Names], logger: () => undefined });

async function frontClient(app: FusionApp, era: 'modern' | 'legacy') {
  const { url } = await app.listen({ transport: 'http', port: 0, handleSignals: false });
  const client = new Client(
    { name: 'front', version: '1.0.0' },
    { versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } }
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url!)));
  return client;
}

type Block = { type: string; uri?: string; resource?: { uri: string } };

/** Calls `tool`, then reads every URI its content names at the front: each answers with contents under that URI. */
async function readsBack(client: Client, tool: string, expected: readonly string[]): Promise<void> {
  const result = (await client.callTool({ name: tool, arguments: {} })) as { content: Block[] };
  const uris = result.content.flatMap((b) => (b.type === 'resource_link' ? [b.uri!] : b.type === 'resource' ? [b.resource!.uri] : []));
  expect(uris).toEqual(expected);
  for (const uri of uris) {
    const read = await client.readResource({ uri });
    expect(read.contents.length).toBeGreaterThan(0);
    expect(read.contents[0]!.uri).toBe(uri);
  }
}

describe.each([
  { upstreamEra: '2025' as const, front: 'legacy' as const },
  { upstreamEra: '2025' as const, front: 'modern' as const },
  { upstreamEra: '2026' as const, front: 'legacy' as const },
  { upstreamEra: '2026' as const, front: 'modern' as const }
])('behind a gateway (upstream $upstreamEra era, front $front)', ({ upstreamEra, front }) => {
  let upstream: FusionApp;
  let gateway: Gateway;
  let app: FusionApp;
  let client: Client;

  beforeAll(async () => {
    upstream = upstreamApp();
    const { url } = await upstream.listen({ transport: 'http', port: 0, handleSignals: false });
    gateway = await proxy(url!, { namespace: 'ev', era: upstreamEra, logger: () => undefined });
    app = FusionApp.create({ name: 'front', version: '1.0.0', tools: [], gateways: [gateway], logger: () => undefined });
    client = await frontClient(app, front);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
    await upstream.close();
  });

  it("a tool's resource links and embedded resources name the gateway's URIs, and read through it", async () => {
    await readsBack(client, 'ev.links', ['ev+demo://items/7', 'ev+demo://readme', 'ev+demo://readme']);
  });

  it("a prompt's embedded resource names the gateway's URI, and reads through it", async () => {
    const prompt = await client.getPrompt({ name: 'ev.rich', arguments: {} });
    const embedded = prompt.messages.map((m) => m.content as Block).find((b) => b.type === 'resource');
    expect(embedded?.resource?.uri).toBe('ev+demo://readme');
    const read = await client.readResource({ uri: embedded!.resource!.uri });
    expect(read.contents[0]).toMatchObject({ uri: 'ev+demo://readme', text: 'Hello from the readme.' });
  });

  it('the upstream’s own URI is not served at the front (what a link named before)', async () => {
    await expect(client.readResource({ uri: 'demo://readme' })).rejects.toMatchObject({ code: -32602 });
  });
});

describe.each(['legacy', 'modern'] as const)('mounted (front %s)', (front) => {
  let app: FusionApp;
  let client: Client;

  beforeAll(async () => {
    app = FusionApp.create({
      name: 'front',
      version: '1.0.0',
      tools: [],
      mounts: [mount('desk', { tools: [SurfaceTools, LinkTools], providers: [Names] })],
      logger: () => undefined
    });
    client = await frontClient(app, front);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  it("a mounted tool's resource links and embedded resources name the front's URIs, and read through it", async () => {
    await readsBack(client, 'desk.links', ['desk+demo://items/7', 'desk+demo://readme', 'desk+demo://readme']);
  });

  it("a mounted prompt's embedded resource names the front's URI", async () => {
    const prompt = await client.getPrompt({ name: 'desk.rich', arguments: {} });
    const embedded = prompt.messages.map((m) => m.content as Block).find((b) => b.type === 'resource');
    expect(embedded?.resource?.uri).toBe('desk+demo://readme');
    const read = await client.readResource({ uri: embedded!.resource!.uri });
    expect(read.contents[0]).toMatchObject({ uri: 'desk+demo://readme', text: 'Hello from the readme.' });
  });
});
