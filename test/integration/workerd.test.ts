import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/**
 * The package in workerd, the Cloudflare Workers runtime: a tiny Worker that imports
 * `@mcpfusion/core` (the built package, as a user's project resolves it) and creates the app in its
 * fetch handler is bundled and served by `wrangler dev` on 127.0.0.1, and a real SDK client lists
 * its tools over 2026-07-28. workerd refuses the whole script if a module does at import what a
 * Worker forbids in global scope (a timer, a random value, an `AbortController`, I/O);
 * test/unit/runtime/import-time.test.ts checks the same in Node, module by module.
 *
 * wrangler is installed apart from the root lockfile (scripts/workerd/, about 195 MB that only
 * this test needs); without it the suite is skipped, saying how to install it (CI installs it and
 * counts a skip as a failure).
 */
const ROOT = join(__dirname, '..', '..');
const WRANGLER = join(ROOT, 'scripts', 'workerd', 'node_modules', '.bin', 'wrangler');
const WRANGLER_INSTALL = 'npm ci --prefix scripts/workerd';

/** The Worker: one tool, declared without TypeScript (esbuild emits no decorator metadata), the app made on the first request. */
const WORKER = `
import { Action, FusionApp, ToolProvider } from '@mcpfusion/core';

class Greeter {
  hello() {
    return 'hi from workerd';
  }
}
Reflect.decorate([ToolProvider()], Greeter);
Reflect.decorate([Action('hello', { description: 'Says hi' })], Greeter.prototype, 'hello', Object.getOwnPropertyDescriptor(Greeter.prototype, 'hello'));

let handler;
export default {
  async fetch(request) {
    handler ??= FusionApp.create({ name: 'workerd-probe', version: '1.0.0', tools: [Greeter] }).createHttpHandler();
    return handler.fetch(request);
  }
};
`;

const WRANGLER_TOML = `name = "mcpfusion-workerd-probe"
main = "worker.js"
compatibility_date = "2025-09-15"
compatibility_flags = ["nodejs_compat"]
`;

/** Starts `wrangler dev` in `dir`; resolves with its URL once it is ready, rejects with its output if it exits or the Worker fails to load. */
function startWrangler(dir: string): { child: ChildProcess; ready: Promise<URL> } {
  const child = spawn(
    WRANGLER,
    ['dev', '--ip', '127.0.0.1', '--port', '0', '--inspector-port', '0', '--show-interactive-dev-session=false'],
    {
      cwd: dir,
      // No metrics, no prompts, wrangler's own files (logs, config) in the scratch folder.
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true', XDG_CONFIG_HOME: join(dir, '.config'), NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe']
    }
  );
  const ready = new Promise<URL>((resolve, reject) => {
    let seen = '';
    const read = (chunk: Buffer): void => {
      seen += chunk.toString();
      // The script is loaded before "Ready": an import-time failure is reported as "Uncaught ...".
      if (/Uncaught|runtime failed to start/.test(seen)) reject(new Error(`the Worker failed to load:\n${seen}`));
      const match = /Ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (match) resolve(new URL(match[1]));
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`wrangler dev exited (${String(code)}) before it was ready:\n${seen}`)));
  });
  return { child, ready };
}

const describeWithWrangler = existsSync(WRANGLER) ? describe : describe.skip;
const skipped = existsSync(WRANGLER) ? '' : ` (skipped: wrangler is not installed at ${WRANGLER}; install it with: ${WRANGLER_INSTALL})`;

describeWithWrangler(`@mcpfusion/core in a Cloudflare Worker (wrangler dev, workerd)${skipped}`, () => {
  let dir: string;
  let wrangler: ChildProcess | undefined;
  let url: URL;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcpfusion-workerd-'));
    await writeFile(join(dir, 'worker.js'), WORKER);
    await writeFile(join(dir, 'wrangler.toml'), WRANGLER_TOML);
    // The Worker's project resolves the package as an installed dependency: its exports, its dist/.
    await mkdir(join(dir, 'node_modules', '@mcpfusion'), { recursive: true });
    await symlink(ROOT, join(dir, 'node_modules', '@mcpfusion', 'core'), 'dir');
    const started = startWrangler(dir);
    wrangler = started.child;
    url = await started.ready;
  }, 120_000);

  afterAll(async () => {
    if (wrangler && wrangler.exitCode === null && wrangler.signalCode === null) {
      const exited = once(wrangler, 'exit');
      wrangler.kill('SIGTERM');
      await exited;
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('loads the package at import and lists the tools to a 2026-07-28 SDK client (the app made on the first request)', async () => {
    const client = new Client({ name: 'workerd-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', url)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['hello']);
    } finally {
      await client.close();
    }
  }, 60_000);
});
