import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FusionApp, proxyServers } from '../../src';
import { ChildServers } from '../helpers/child-servers';

/**
 * An upstream with only the deprecated HTTP+SSE transport (as older servers and many configs
 * still have, `"type": "sse"` or a URL ending in `/sse`): the gateway speaks to it in the 2025
 * era over its event stream, headers included, and serves it to clients of both eras. The
 * upstream is a real child process (test/fixtures/sse-upstream.ts) on 127.0.0.1.
 */

const FIXTURE = join(__dirname, '..', '..', 'build', 'test', 'fixtures', 'sse-upstream.js');
const textOf = (result: { content?: unknown }) =>
  ((result.content ?? []) as Array<{ text?: string }>).map((block) => block.text ?? '').join('\n');

describe('an HTTP+SSE upstream in an mcpServers config', () => {
  const servers = new ChildServers();
  let sseUrl: URL;
  afterAll(() => servers.stopAll());
  beforeAll(async () => {
    sseUrl = await servers.start([FIXTURE], { SSE_REQUIRE_TOKEN: 'sesame' }, /listening on (\S+)/);
  });

  it.each([
    ['"type": "sse"', (url: string) => ({ type: 'sse', url, headers: { Authorization: 'Bearer ${SSE_TOKEN}' } })],
    ['a URL ending in /sse', (url: string) => ({ url, headers: { Authorization: 'Bearer ${SSE_TOKEN}' } })]
  ])(
    'is served to clients of both eras (%s), its progress and headers kept',
    async (_how, entry) => {
      const set = await proxyServers(
        { mcpServers: { old: entry(sseUrl.href) } },
        { env: { SSE_TOKEN: 'sesame' }, watch: false, logger: () => undefined }
      );
      const app = FusionApp.create({ name: 'front', version: '1.0.0', tools: [], gateways: [set], logger: () => undefined });
      const { url } = await app.listen({ transport: 'http', port: 0, handleSignals: false });
      try {
        for (const mode of ['legacy', { pin: '2026-07-28' }] as const) {
          const client = new Client({ name: 'front', version: '1.0.0' }, { versionNegotiation: { mode } });
          await client.connect(new StreamableHTTPClientTransport(url!));
          try {
            expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['old.count', 'old.echo']);
            expect(textOf(await client.callTool({ name: 'old.echo', arguments: {} }))).toBe('hello over sse');
            const seen: string[] = [];
            const counted = await client.callTool({ name: 'old.count', arguments: {} }, { onprogress: (p) => seen.push(p.message ?? '') });
            expect(textOf(counted)).toBe('counted 3');
            expect(seen).toEqual(['step 1', 'step 2', 'step 3']);
          } finally {
            await client.close();
          }
        }
      } finally {
        await app.close();
      }
    },
    30_000
  );

  it('a wrong token is refused by the upstream, and the call says the upstream is down', async () => {
    const set = await proxyServers(
      { mcpServers: { old: { type: 'sse', url: sseUrl.href, headers: { Authorization: 'Bearer wrong' } } } },
      { watch: false, retryMs: 600_000, logger: () => undefined }
    );
    try {
      expect(set.health()[0]).toMatchObject({ name: 'old', state: 'down' });
      expect(set.health()[0].lastError).toMatch(/401|Unauthorized/i);
    } finally {
      await set.close();
    }
  }, 30_000);
});
