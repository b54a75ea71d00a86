import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { DevProcess, makeDevProject, removeDevProject, toolsSource, writeFile } from '../helpers/dev-project';

/**
 * `mcpfusion dev` as a user runs it: the real CLI (@mcpfusion/cli's bin) in a temporary project, its
 * tsc in watch mode, real SDK clients of both eras over HTTP on 127.0.0.1. One dev process serves
 * every case, in order; each waits on the lines dev prints and the notifications clients get.
 */

/** The test's end of the fixture's `hold` mutation: `held` when the call waits, `release()` lets it return. */
class HoldServer {
  readonly server: Server;
  held!: Promise<void>;
  /** Resolves when a mutation found the lock held (the fixture's lock tells `/lock-wait`). */
  lockWaited!: Promise<void>;
  private markHeld!: () => void;
  private markLockWaited!: () => void;
  private waiting: ServerResponse | undefined;
  private released = false;

  constructor() {
    this.reset();
    this.server = createServer((request, response) => {
      // `/state`: whether the held call was let go (what the next mutation reports, to show it ran after).
      if (request.url === '/state') return void response.end(this.released ? 'after the held call' : 'while the held call held');
      if (request.url === '/lock-wait') {
        this.markLockWaited();
        return void response.end();
      }
      this.waiting = response;
      this.markHeld();
    });
  }

  reset(): void {
    this.released = false;
    this.held = new Promise((resolve) => (this.markHeld = resolve));
    this.lockWaited = new Promise((resolve) => (this.markLockWaited = resolve));
  }

  release(): void {
    this.released = true;
    this.waiting?.end('released');
    this.waiting = undefined;
  }

  async url(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
}

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

let dir: string;
let dev: DevProcess;
let url: URL;
let hold: HoldServer;
let legacy: Client;
let legacyTransport: StreamableHTTPClientTransport;
/** The 2025-era client's tools/list_changed notifications so far. */
let toolsChanged = 0;
let onToolsChanged: (() => void) | undefined;
const nextToolsChange = () => new Promise<void>((resolve) => (onToolsChanged = resolve));

beforeAll(async () => {
  dir = makeDevProject();
  hold = new HoldServer();
  const from = 0;
  dev = new DevProcess(dir, { HOLD_URL: await hold.url() });
  url = new URL((await dev.next(/MCP endpoint: (\S+)/, from)).split('MCP endpoint: ')[1]);
  await dev.next(/serving 2 tools/, from);
  legacyTransport = new StreamableHTTPClientTransport(url);
  legacy = new Client({ name: 'legacy', version: '1' });
  legacy.setNotificationHandler('notifications/tools/list_changed', () => {
    toolsChanged++;
    onToolsChanged?.();
  });
  await legacy.connect(legacyTransport);
}, 120_000);

afterAll(async () => {
  await legacy?.close();
  const code = await dev?.stop();
  hold?.server.close();
  if (dir) removeDevProject(dir);
  expect(code).toBe(0);
}, 30_000);

describe('mcpfusion dev: hot reload with clients connected', () => {
  it('serves on 127.0.0.1 and names a @ToolProvider() class that was loaded but given to no app', async () => {
    expect(url.hostname).toBe('127.0.0.1');
    expect(legacy.getProtocolEra()).toBe('legacy');
    expect(text(await legacy.callTool({ name: 'version', arguments: {} }))).toBe('v1');
    const warning = await dev.next(/warning: @ToolProvider\(\) class ForgottenTools/, 0);
    expect(warning).toContain('src/forgotten.ts');
    expect(warning).toContain('FusionApp.create({ tools: [..., ForgottenTools] })');
  });

  it('serves the browser inspector beside the project: its URL printed, its dev panel reading the chains of the code served now', async () => {
    const page = new URL((await dev.next(/inspector: (\S+)/, 0)).split('inspector: ')[1]);
    expect(page.hostname).toBe('127.0.0.1');
    const html = await fetch(page);
    expect(html.status).toBe(200);
    expect(await html.text()).toContain('<html');
    const chain = await fetch(new URL('api/chain', page), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'tool', name: 'version' })
    });
    expect(((await chain.json()) as { chain: string[] }).chain.length).toBeGreaterThan(0);
  });

  it('an edit reloads the tools: the 2025-era session is kept, told, and calls the new tool; a 2026-era client lists it', async () => {
    const sessionId = legacyTransport.sessionId;
    const mark = dev.mark();
    const changed = nextToolsChange();
    writeFile(
      dir,
      'src/tools.ts',
      toolsSource('v2', `\n  @Action('added', { description: 'Added by the edit' })\n  added(): string {\n    return 'added in v2';\n  }\n`)
    );
    await dev.next(/reloaded: tools changed \(\+added\)/, mark);
    await changed;
    expect(legacyTransport.sessionId).toBe(sessionId);
    expect(text(await legacy.callTool({ name: 'added', arguments: {} }))).toBe('added in v2');
    expect(text(await legacy.callTool({ name: 'version', arguments: {} }))).toBe('v2');
    const modern = new Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await modern.connect(new StreamableHTTPClientTransport(url));
    expect(modern.getProtocolEra()).toBe('modern');
    expect((await modern.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['added', 'hold', 'version']);
    await modern.close();
  }, 60_000);

  it('an edit that does not compile leaves the previous code serving and prints file:line; the fix reloads', async () => {
    const mark = dev.mark();
    const good = readFileSync(join(dir, 'src/tools.ts'), 'utf8');
    writeFile(dir, 'src/tools.ts', good.replace("return 'added in v2';", "return 'added in v2' +;"));
    await dev.next(/compile failed \(1 error\); the previous code keeps serving/, mark);
    expect(await dev.next(/src\/tools\.ts:\d+:\d+ - error TS1109/, mark)).toMatch(
      /^\s*src\/tools\.ts:1[0-9]:\d+ - error TS1109: Expression expected/
    );
    expect(text(await legacy.callTool({ name: 'added', arguments: {} }))).toBe('added in v2');
    const fixed = dev.mark();
    writeFile(dir, 'src/tools.ts', good);
    await dev.next(/reloaded: no list changed/, fixed);
    expect(text(await legacy.callTool({ name: 'version', arguments: {} }))).toBe('v2');
  }, 60_000);

  it('a call in flight across a reload finishes on its code, and the mutation lock it held goes to the next mutation', async () => {
    hold.reset();
    const held = legacy.callTool({ name: 'hold', arguments: {} });
    await hold.held;
    const mark = dev.mark();
    const changed = nextToolsChange();
    writeFile(
      dir,
      'src/tools.ts',
      toolsSource(
        'v3',
        `\n  @Mutation('write', { description: 'A mutation of v3' })\n  async write(): Promise<string> {\n` +
          `    return 'written in v3 ' + (await (await fetch(process.env.HOLD_URL + '/state')).text());\n  }\n`
      )
    );
    await dev.next(/reloaded: tools changed \(\+write\) \(-added\)/, mark);
    await changed;
    // The new mutation waits for the lock the held call (old code) holds; it runs once that call ends.
    const write = legacy.callTool({ name: 'write', arguments: {} });
    await Promise.race([
      hold.lockWaited,
      write.then(() => Promise.reject(new Error('the new mutation ran while the held one held the lock')))
    ]);
    hold.release();
    expect(text(await held)).toBe('held by v2');
    expect(text(await write)).toBe('written in v3 after the held call');
    expect(text(await legacy.callTool({ name: 'version', arguments: {} }))).toBe('v3');
  }, 60_000);

  it('errors that look like missing decorator flags print both flags and the tsconfig to edit', async () => {
    const tsconfig = readFileSync(join(dir, 'tsconfig.json'), 'utf8');
    const mark = dev.mark();
    const bare = JSON.parse(tsconfig) as { compilerOptions: Record<string, unknown> };
    delete bare.compilerOptions.experimentalDecorators;
    delete bare.compilerOptions.emitDecoratorMetadata;
    writeFile(dir, 'tsconfig.json', JSON.stringify(bare, null, 2));
    const hint = await dev.next(/decorator flags are missing/, mark);
    expect(hint).toContain('"experimentalDecorators": true and "emitDecoratorMetadata": true');
    expect(hint).toContain('"compilerOptions" of tsconfig.json');
    expect(
      dev
        .output()
        .split('\n')
        .slice(mark)
        .some((line) => /src\/tools\.ts:\d+:\d+ - error TS12(40|41|70)/.test(line))
    ).toBe(true);
    expect(text(await legacy.callTool({ name: 'version', arguments: {} }))).toBe('v3');
    const restored = dev.mark();
    writeFile(dir, 'tsconfig.json', tsconfig);
    await dev.next(/reloaded/, restored);
    expect(toolsChanged).toBeGreaterThanOrEqual(2);
  }, 60_000);
});
