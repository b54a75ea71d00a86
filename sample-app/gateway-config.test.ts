import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ChildServers } from '../test/helpers/child-servers';
import { CLI_BIN } from '../test/helpers/cli-bin';
import { TEST_STATE_KEY, tempDb, textOf, type TempDb } from './test-helpers';

/**
 * `mcpfusion serve --config <file>` end to end: the compiled CLI reads an `mcpServers` file
 * naming the sample app (its database from `${GW_DESK_DB}`) and the stdio test fixture, spawns
 * both over stdio, and serves them under their names to SDK clients of both eras.
 */

const ROOT = join(__dirname, '..');
const SAMPLE = join(ROOT, 'build', 'sample-app', 'main.js');
const FIXTURE = join(ROOT, 'build', 'test', 'fixtures', 'stdio-server.js');

describe('mcpfusion serve --config <mcpServers file>', () => {
  const servers = new ChildServers();
  let db: TempDb;
  let dir: string;
  let url: URL;

  beforeAll(async () => {
    db = tempDb();
    dir = mkdtempSync(join(tmpdir(), 'serve-config-'));
    const file = join(dir, 'mcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          desk: { command: process.execPath, args: [SAMPLE, '--stdio'], env: { BILLING_DB: '${GW_DESK_DB}' } },
          Fixture: { command: process.execPath, args: [FIXTURE] }
        }
      })
    );
    url = await servers.start(
      [CLI_BIN, 'serve', '--config', file, '--port', '0'],
      { GW_DESK_DB: db.path, FUSION_STATE_KEY: TEST_STATE_KEY },
      /listening on (\S+)/
    );
  });
  afterAll(async () => {
    await servers.stopAll();
    db?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['2025', '2026'] as const)(
    'serves both upstreams to a %s-era client, and their health',
    async (era) => {
      const client = new Client(
        { name: `serve-config-${era}`, version: '1.0.0' },
        { versionNegotiation: { mode: era === '2026' ? { pin: '2026-07-28' } : 'legacy' } }
      );
      await client.connect(new StreamableHTTPClientTransport(url));
      try {
        const names = (await client.listTools()).tools.map((tool) => tool.name);
        expect(names).toEqual(expect.arrayContaining(['desk.billing.list', 'fixture.echo', 'fixture.count']));
        expect(textOf(await client.callTool({ name: 'fixture.echo', arguments: {} }))).toBe('hello over stdio');
        const listed = await client.callTool({ name: 'desk.billing.list', arguments: {} });
        expect(listed.isError).toBeFalsy();
        expect(textOf(listed)).toMatch(/"items"/);
        const health = await client.readResource({ uri: 'mcpfusion://gateway/health' });
        const upstreams = (
          JSON.parse((health.contents[0] as { text: string }).text) as {
            upstreams: Array<{ name: string; namespace: string; state: string }>;
          }
        ).upstreams;
        expect(upstreams.map(({ name, namespace, state }) => ({ name, namespace, state }))).toEqual([
          { name: 'desk', namespace: 'desk', state: 'up' },
          { name: 'Fixture', namespace: 'fixture', state: 'up' }
        ]);
      } finally {
        await client.close();
      }
    },
    60_000
  );
});
