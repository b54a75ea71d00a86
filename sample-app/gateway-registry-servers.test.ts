import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ChildServers } from '../test/helpers/child-servers';
import { CLI_BIN } from '../test/helpers/cli-bin';
import { TEST_STATE_KEY, tempDb, textOf, type TempDb } from './test-helpers';

/**
 * Issue 43's first "done when", as a test: `mcpfusion serve --config` with the sample app and two
 * servers no one here wrote, `@modelcontextprotocol/server-everything` and
 * `@modelcontextprotocol/server-filesystem` (from the registry, SDK v1, spawned over stdio as a
 * user's `mcp.json` names them), serves all three to SDK clients of both eras.
 */

const ROOT = join(__dirname, '..');
const SAMPLE = join(ROOT, 'build', 'sample-app', 'main.js');
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

describe('mcpfusion serve --config: the sample app, server-everything and server-filesystem', () => {
  const servers = new ChildServers();
  let db: TempDb;
  let dir: string;
  let shared: string;
  let url: URL;

  beforeAll(async () => {
    db = tempDb();
    dir = mkdtempSync(join(tmpdir(), 'serve-registry-'));
    shared = realpathSync(mkdtempSync(join(tmpdir(), 'serve-registry-files-')));
    writeFileSync(join(shared, 'notes.txt'), 'invoice 42 was refunded\n');
    const file = join(dir, 'mcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          desk: { command: process.execPath, args: [SAMPLE, '--stdio'], env: { BILLING_DB: '${GW_DESK_DB}' } },
          everything: { command: process.execPath, args: [EVERYTHING] },
          filesystem: { command: process.execPath, args: [FILESYSTEM, shared] }
        }
      })
    );
    url = await servers.start(
      [CLI_BIN, 'serve', '--config', file, '--port', '0'],
      { GW_DESK_DB: db.path, FUSION_STATE_KEY: TEST_STATE_KEY },
      /listening on (\S+)/
    );
  }, 60_000);
  afterAll(async () => {
    await servers.stopAll();
    db?.remove();
    rmSync(dir, { recursive: true, force: true });
    rmSync(shared, { recursive: true, force: true });
  });

  const connect = async (era: '2025' | '2026') => {
    const client = new Client(
      { name: `serve-registry-${era}`, version: '1.0.0' },
      { versionNegotiation: { mode: era === '2026' ? { pin: '2026-07-28' } : 'legacy' } }
    );
    await client.connect(new StreamableHTTPClientTransport(url));
    return client;
  };

  it.each(['2025', '2026'] as const)(
    'a %s-era client lists and calls the tools of all three, and reads their resources',
    async (era) => {
      const client = await connect(era);
      try {
        const names = (await client.listTools()).tools.map((tool) => tool.name);
        expect(names).toEqual(
          expect.arrayContaining(['desk.billing.list', 'everything.echo', 'everything.get-sum', 'filesystem.read_text_file'])
        );
        expect(textOf(await client.callTool({ name: 'everything.echo', arguments: { message: 'through the door' } }))).toBe(
          'Echo: through the door'
        );
        const sum = await client.callTool({ name: 'everything.get-sum', arguments: { a: 2, b: 40 } });
        expect(textOf(sum)).toMatch(/42/);
        const read = await client.callTool({ name: 'filesystem.read_text_file', arguments: { path: join(shared, 'notes.txt') } });
        expect(textOf(read)).toContain('invoice 42 was refunded');
        const outside = await client.callTool({ name: 'filesystem.read_text_file', arguments: { path: '/etc/hostname' } });
        expect(outside.isError).toBe(true);
        const listed = await client.callTool({ name: 'desk.billing.list', arguments: {} });
        expect(listed.isError).toBeFalsy();
        const resources = (await client.listResources()).resources.map((resource) => resource.uri);
        const demo = resources.find((uri) => uri.startsWith('everything+demo://'));
        expect(demo).toBeDefined();
        const contents = await client.readResource({ uri: demo! });
        expect(contents.contents[0].uri).toBe(demo);
      } finally {
        await client.close();
      }
    },
    60_000
  );

  it.each(['2025', '2026'] as const)(
    "a %s-era client reads a resource link of server-everything's result through the gateway",
    async (era) => {
      const client = await connect(era);
      try {
        const result = await client.callTool({ name: 'everything.get-resource-links', arguments: { count: 2 } });
        const links = (result.content as Array<{ type: string; uri?: string }>).filter((block) => block.type === 'resource_link');
        expect(links).toHaveLength(2);
        for (const link of links) {
          expect(link.uri).toMatch(/^everything\+demo:\/\//);
          const contents = await client.readResource({ uri: link.uri! });
          expect(contents.contents[0].uri).toBe(link.uri);
        }
      } finally {
        await client.close();
      }
    },
    60_000
  );
});
