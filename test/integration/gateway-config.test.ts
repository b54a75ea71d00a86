import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FusionApp, proxyServers, type UpstreamHealth, type UpstreamSet } from '../../src';
import { GatewayUpstreamTools } from '../fixtures/gateway-upstream-tools';

/**
 * Many upstreams from one `mcpServers` file: the sample app and the gateway fixture as child
 * processes over stdio, and an app over HTTP on 127.0.0.1 that is down when the set starts and
 * comes up later. The front clients are real SDK clients of both eras. Every wait is on an event
 * (a list_changed notification, a listing), never on time.
 */

const ROOT = join(__dirname, '..', '..');
const SAMPLE_APP = join(ROOT, 'build', 'sample-app', 'main.js');
const FIXTURE = join(ROOT, 'build', 'test', 'fixtures', 'gateway-upstream.js');

let dir: string;
const logs: string[] = [];
const waiters: Array<{ text: string; resolve: (line: string) => void }> = [];
/** The gateway's log, kept; a waiter is resolved by the first line containing its text. */
const log = (line: string): void => {
  logs.push(line);
  for (const waiter of waiters.splice(0))
    if (line.includes(waiter.text)) waiter.resolve(line);
    else waiters.push(waiter);
};
/** Resolves with the next log line that contains `text`. */
const logged = (text: string): Promise<string> => new Promise((resolve) => waiters.push({ text, resolve }));
const closers: Array<() => Promise<void>> = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gw-config-'));
  logs.length = 0;
});

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  rmSync(dir, { recursive: true, force: true });
});

/** A port nothing listens on now (bound, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function httpUpstream(port: number): Promise<void> {
  const app = FusionApp.create({ name: 'late', version: '1.0.0', tools: [GatewayUpstreamTools], logger: () => undefined });
  await app.listen({ transport: 'http', host: '127.0.0.1', port, handleSignals: false });
  closers.push(() => app.close());
}

function writeConfig(file: string, servers: Record<string, unknown>): void {
  writeFileSync(file, JSON.stringify({ mcpServers: servers }, null, 2));
}

const desk = { command: process.execPath, args: [SAMPLE_APP, '--stdio'], env: { BILLING_DB: '${GW_TEST_BILLING_DB}' } };
const fixture = { command: process.execPath, args: [FIXTURE] };

async function front(app: FusionApp, era: 'legacy' | 'modern'): Promise<Client> {
  const handler = app.createHttpHandler();
  const client = new Client(
    { name: 'front', version: '1.0.0' },
    { versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } }
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) })
  );
  closers.push(async () => {
    await client.close();
    await handler.close();
  });
  return client;
}

async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name);
}

/** Resolves once the tool listing satisfies `ok`, listing again at each list_changed (no polling on time); `heard` counts those. */
async function listedWhen(client: Client, ok: (names: string[]) => boolean): Promise<string[] & { heard?: number }> {
  let signal: () => void = () => undefined;
  let heard = 0;
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    heard++;
    signal();
  });
  for (;;) {
    const changed = new Promise<void>((resolve) => (signal = resolve));
    const names = await toolNames(client);
    if (ok(names)) return Object.assign(names, { heard });
    await changed;
  }
}

async function health(client: Client): Promise<UpstreamHealth[]> {
  const result = await client.readResource({ uri: 'mcpfusion://gateway/health' });
  const first = result.contents[0] as { text: string };
  return (JSON.parse(first.text) as { upstreams: UpstreamHealth[] }).upstreams;
}

async function gatewayApp(set: UpstreamSet): Promise<FusionApp> {
  const app = FusionApp.create({ name: 'front', version: '1.0.0', tools: [], gateways: [set], logger: () => undefined });
  closers.push(() => app.close());
  return app;
}

function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as Array<{ text?: string }>).map((block) => block.text ?? '').join('\n');
}

test('three upstreams from one file: one down at start comes up on retry; the file edited adds and removes upstreams with list_changed', async () => {
  const port = await freePort();
  const file = join(dir, 'mcp.json');
  writeConfig(file, { desk, fixture, late: { url: `http://127.0.0.1:${port}/mcp` } });
  const set = await proxyServers(file, {
    env: { ...process.env, GW_TEST_BILLING_DB: join(dir, 'billing.db') },
    retryMs: 20,
    maxRetryMs: 200,
    logger: log
  });
  const app = await gatewayApp(set);
  const legacy = await front(app, 'legacy');
  const modern = await front(app, 'modern');
  // A 2026-07-28 client hears of list changes on a listen stream.
  const subscription = await modern.listen({ toolsListChanged: true });
  closers.push(() => subscription.close());

  // Served from those that answered; the one down is named in the health resource and the log.
  const names = await toolNames(legacy);
  expect(names.some((name) => name.startsWith('desk.'))).toBe(true);
  expect(names).toContain('fixture.count');
  expect(names.some((name) => name.startsWith('late.'))).toBe(false);
  expect(await toolNames(modern)).toEqual(names);
  const states = Object.fromEntries((await health(modern)).map((h) => [h.name, h]));
  expect(states.desk!.state).toBe('up');
  expect(states.fixture!.state).toBe('up');
  expect(states.late!.state).toBe('down');
  expect(states.late!.lastError).toMatch(/127\.0\.0\.1/);
  expect(states.late!.nextRetryAt).toEqual(expect.any(String));
  expect(logs.some((line) => line.includes('upstream "late" is down'))).toBe(true);

  // Calls through each era go to their upstream.
  expect(textOf(await modern.callTool({ name: 'fixture.count', arguments: {} }))).toMatch(/3/);

  // It comes up: the retry connects it, and the front client is told.
  await httpUpstream(port);
  const withLate = await listedWhen(legacy, (listed) => listed.includes('late.count'));
  expect(withLate).toContain('desk.billing.list');
  expect((await health(legacy)).find((h) => h.name === 'late')!.state).toBe('up');
  expect(textOf(await legacy.callTool({ name: 'late.count', arguments: {} }))).toMatch(/3/);

  // The file edited: `fixture` removed, `again` (the same fixture) added.
  writeConfig(file, { desk, late: { url: `http://127.0.0.1:${port}/mcp` }, again: fixture });
  const editedOk = (listed: string[]): boolean => listed.includes('again.count') && !listed.includes('fixture.count');
  const [edited, editedModern] = await Promise.all([listedWhen(legacy, editedOk), listedWhen(modern, editedOk)]);
  expect([...editedModern]).toEqual([...edited]);
  // Each front client was told (the listing it started from was the one before the edit).
  expect(edited.heard).toBeGreaterThan(0);
  expect(editedModern.heard).toBeGreaterThan(0);
  expect(edited).toContain('late.count');
  expect((await health(modern)).map((h) => h.name).sort()).toEqual(['again', 'desk', 'late']);

  // A broken edit is logged, and the set stays as it was.
  const reloaded = logged('was not reloaded');
  writeFileSync(file, '{ "mcpServers": { "bad": { "url": 3 } } }');
  expect(await reloaded).toMatch(/mcpServers\."bad"\.url: expected a string/);
  expect(await toolNames(legacy)).toEqual([...edited]);
}, 60_000);

test('an upstream that dies is down: its calls fail at once naming it, the others keep working', async () => {
  const set = await proxyServers({ mcpServers: { fixture, other: fixture } }, { retryMs: 600_000, logger: log });
  const app = await gatewayApp(set);
  const client = await front(app, 'legacy');
  await client.callTool({ name: 'fixture.die', arguments: {} }).catch(() => undefined);
  // Fails without trying the upstream: the answer says it is down and when it is tried again (not a connect error).
  const result = await client.callTool({ name: 'fixture.count', arguments: {} });
  expect(result.isError).toBe(true);
  expect(textOf(result)).toMatch(/The upstream "fixture" is down .*tries it again at/);
  expect(textOf(await client.callTool({ name: 'other.count', arguments: {} }))).toMatch(/3/);
  const states = await health(client);
  expect((await client.listResources()).resources.map((r) => r.uri)).toContain('mcpfusion://gateway/health');
  const fixtureHealth = states.find((h) => h.name === 'fixture')!;
  expect(fixtureHealth).toMatchObject({ state: 'down', failures: 1, tools: expect.any(Number) });
  expect(logs.some((line) => line.includes('upstream "fixture" went down'))).toBe(true);
}, 60_000);

test('a slow upstream (it never answers initialize) does not hold the others: it is down at its deadline', async () => {
  const port = await freePort();
  await httpUpstream(port);
  // `slow` reads its stdin and never answers `initialize`.
  const slow = { command: process.execPath, args: ['-e', 'process.stdin.resume()'] };
  const set = await proxyServers(
    { mcpServers: { slow, quick: { url: `http://127.0.0.1:${port}/mcp` } } },
    { retryMs: 600_000, connectTimeoutMs: 2000, logger: log }
  );
  const app = await gatewayApp(set);
  const client = await front(app, 'modern');
  expect(await toolNames(client)).toContain('quick.count');
  const states = await health(client);
  expect(states.find((h) => h.name === 'slow')).toMatchObject({ state: 'down', lastError: 'no answer within 2000 ms', tools: 0 });
  expect(states.find((h) => h.name === 'quick')).toMatchObject({ state: 'up' });
}, 30_000);

test.each(['legacy', 'modern'] as const)(
  'an HTTP upstream that goes away is down after its first failed call (%s front)',
  async (era) => {
    const port = await freePort();
    await httpUpstream(port);
    const upstream = closers.pop()!;
    const set = await proxyServers({ mcpServers: { remote: { url: `http://127.0.0.1:${port}/mcp` } } }, { retryMs: 600_000, logger: log });
    const app = await gatewayApp(set);
    const client = await front(app, era);
    expect(textOf(await client.callTool({ name: 'remote.count', arguments: {} }))).toMatch(/3/);
    await upstream();
    const first = await client.callTool({ name: 'remote.count', arguments: {} });
    expect(first.isError).toBe(true);
    expect(textOf(first)).toMatch(new RegExp(`The upstream MCP server http://127.0.0.1:${port}/mcp is unavailable: fetch failed`));
    const second = await client.callTool({ name: 'remote.count', arguments: {} });
    expect(textOf(second)).toMatch(/^The upstream "remote" is down \(fetch failed/);
    expect(set.health()[0]).toMatchObject({ state: 'down', failures: 1, nextRetryAt: expect.any(String) });
  },
  30_000
);

describe('the config, checked', () => {
  const check = (value: unknown, env: NodeJS.ProcessEnv = {}) => proxyServers(value as object, { env, watch: false, logger: log });

  test('${VAR} and ${env:VAR} are expanded; a missing one names the variable, the entry and the field', async () => {
    await expect(
      check({ mcpServers: { api: { url: 'http://127.0.0.1:1/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } } } })
    ).rejects.toThrow('mcpServers."api".headers.Authorization: ${TOKEN} is not set in the environment.');
    await expect(check({ servers: { api: { type: 'stdio', command: '${env:NODE_BIN}' } } })).rejects.toThrow(
      'servers."api".command: ${NODE_BIN} is not set'
    );
    await expect(check({ mcpServers: { a: { command: 'x', args: ['${input:token}'] } } })).rejects.toThrow(
      'mcpServers."a".args[0]: ${input:token} is not a variable this file may use'
    );
    const set = await proxyServers(
      { servers: { My_Fixture: { type: 'stdio', command: '${env:NODE_BIN}', args: ['${FIXTURE_JS}'] } } },
      { env: { ...process.env, NODE_BIN: process.execPath, FIXTURE_JS: FIXTURE }, watch: false, logger: log }
    );
    const app = await gatewayApp(set);
    const client = await front(app, 'modern');
    expect(await toolNames(client)).toContain('my-fixture.count');
  }, 30_000);

  test('every problem names its entry and field', async () => {
    await expect(check(3)).rejects.toThrow(/expected an object with "mcpServers"/);
    await expect(check({ mcpServers: [] })).rejects.toThrow('"mcpServers" must be an object of servers by name (got an array)');
    const problems = check({
      mcpServers: {
        a: { command: 'node', args: 'main.js' },
        b: { url: 'ftp://x' },
        c: { command: 'x', url: 'http://127.0.0.1/mcp' },
        d: { type: 'websocket', url: 'ws://127.0.0.1/mcp' },
        e: { command: 'x', env: { A: 1 } },
        f: { command: 'x', shell: true },
        g: 'node main.js',
        h: { command: 'x', disabled: true }
      }
    });
    await expect(problems).rejects.toThrow(/7 problem\(s\)/);
    const message = await problems.catch((error: Error) => error.message);
    expect(message).toMatch(/mcpServers\."a"\.args: expected an array of strings, got string/);
    expect(message).toMatch(/mcpServers\."b"\.url: ftp:\/\/x\/? is not an http\(s\) URL/);
    expect(message).toMatch(/mcpServers\."c": give either "command"/);
    expect(message).toMatch(/mcpServers\."d"\.type: "websocket" is not a transport \(stdio, http, streamable-http, sse\)/);
    expect(message).toMatch(/mcpServers\."e"\.env\.A: expected a string, got number/);
    expect(message).toMatch(/mcpServers\."f"\.shell: unknown field/);
    expect(message).toMatch(/mcpServers\."g": expected an object/);
    expect(message).not.toMatch(/"h"/);
    await expect(check({ mcpServers: { a_b: { command: 'x' }, 'A-B': { command: 'y' } } })).rejects.toThrow(
      'mcpServers."A-B": its namespace "a-b" is also "a_b"\'s'
    );
  });

  test('a file that is not JSON names the file', async () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{ "mcpServers": ');
    await expect(proxyServers(file, { watch: false })).rejects.toThrow(`${file} is not JSON`);
    await expect(proxyServers(join(dir, 'absent.json'), { watch: false })).rejects.toThrow(
      `Cannot read the gateway config ${join(dir, 'absent.json')}`
    );
  });
});
