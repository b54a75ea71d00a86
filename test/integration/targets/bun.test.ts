import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkListenHttp, checkListenStdio, LISTEN_MAIN } from '../../helpers/target-listen';
import { expectBadHostRefused, runTargetScenario } from '../../helpers/target-scenario';
import {
  ROOT,
  RUNTIMES_INSTALL,
  removeScratch,
  runToEnd,
  runtimeBin,
  scratchTemplate,
  startTarget,
  type TargetServer
} from '../../helpers/template-project';

/**
 * The Bun target: examples/templates/bun (what `mcpfusion init --template bun` writes), its
 * TypeScript sources run by Bun as they are (Bun's transpiler emits the decorator metadata the
 * framework reads: no tsc step), served by `Bun.serve` through `app.createHttpHandler().fetch`,
 * against this repository's built package, and checked by SDK clients of both eras (Bun keeps
 * a long-lived process: 2025-era sessions live in it, as on Node). Its own tests (`bun test`) pass,
 * and it type-checks with Bun's types (`@types/bun`, pinned in scripts/runtimes).
 *
 * Bun is installed apart from the root lockfile (scripts/runtimes); without it the suite is
 * skipped, saying how to install it (CI installs it and counts a skip as a failure).
 */
const TEMPLATE = join(ROOT, 'examples', 'templates', 'bun');
const BUN = runtimeBin('bun');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const describeWithBun = BUN ? describe : describe.skip;
const skipped = BUN ? '' : ` (skipped: bun is not installed in scripts/runtimes; install it with: ${RUNTIMES_INSTALL})`;

/** The template's `scripts[name]` (e.g. "bun src/main.ts") as the arguments given to bun, so the test runs what the user runs. */
function bunScript(dir: string, name: string): string[] {
  const script = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts[name];
  const [command, ...args] = script.split(/\s+/);
  if (command !== 'bun') throw new Error(`the template's "${name}" script does not run bun: ${script}`);
  return args;
}

/**
 * Run by Bun in the scratch copy: the template's app and `serve`, with a 12 s pause between two
 * imported notes, so each call's answer stream is quiet for longer than Bun's idle timeout (10 s).
 * Without the template's `server.timeout(request, 0)`, Bun closes the connection and the call
 * never answers. Exits 0 when both eras got their result.
 */
const QUIET_STREAM_CHECK = `
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createApp } from './src/app.ts';
import { serve } from './src/server.ts';

const app = createApp({ importPaceMs: 12_000 });
const serving = serve(app, { port: 0 });
try {
  for (const era of ['2026-07-28', '2025-11-25']) {
    const client = new Client({ name: 'quiet-check', version: '1.0.0' }, era === '2026-07-28' ? { versionNegotiation: { mode: { pin: era } } } : {});
    await client.connect(new StreamableHTTPClientTransport(serving.url));
    const result = await client.callTool({ name: 'notes.import', arguments: { texts: ['a', 'b'] } }, { onprogress: () => {}, timeout: 60_000 });
    await client.close();
    if (result.content?.[0]?.text !== 'Imported 2 notes.') throw new Error(era + ': ' + JSON.stringify(result));
  }
} finally {
  await app.close();
  await serving.stop();
}
`;

describeWithBun(`app.listen on Bun (its HTTP and stdio transports)${skipped}`, () => {
  let dir: string;
  beforeAll(() => {
    dir = scratchTemplate(TEMPLATE);
    writeFileSync(join(dir, 'listen-main.ts'), LISTEN_MAIN);
  });
  afterAll(() => removeScratch(dir));

  test('over HTTP: the scenario, in both eras', async () => {
    await checkListenHttp({ command: BUN!, args: ['listen-main.ts'], cwd: dir });
  }, 120_000);

  test('over stdio: an SDK client spawns bun, lists the tools, calls one with progress', async () => {
    await checkListenStdio({ command: BUN!, args: ['listen-main.ts'], cwd: dir });
  }, 60_000);
});

describeWithBun(`the Bun target (examples/templates/bun, Bun.serve)${skipped}`, () => {
  let dir: string;
  let server: TargetServer | undefined;

  beforeAll(async () => {
    dir = scratchTemplate(TEMPLATE);
    server = await startTarget({
      command: BUN!,
      args: bunScript(dir, 'start'),
      cwd: dir,
      env: { PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production' },
      ready: /listening on (http:\/\/127\.0\.0\.1:\d+)\/mcp/
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (dir) removeScratch(dir);
  });

  test.each(['2026-07-28', '2025-11-25'] as const)(
    'serves the scenario to a %s client',
    async (era) => {
      await runTargetScenario({ url: server!.url, era });
    },
    60_000
  );

  test('refuses a bad Host', async () => {
    await expectBadHostRefused(server!.url);
  });

  test("a stream quiet for longer than Bun.serve's idle timeout (10 s) still delivers its answer, in both eras", async () => {
    writeFileSync(join(dir, 'quiet-stream-check.ts'), QUIET_STREAM_CHECK);
    await runToEnd(BUN!, ['quiet-stream-check.ts'], dir);
  }, 90_000);

  test('stops cleanly on SIGTERM (app.close, then the server)', async () => {
    const stopping = server!;
    server = undefined;
    const exited = new Promise<number | null>((resolve) => stopping.child.once('exit', (code) => resolve(code)));
    await stopping.stop();
    expect(await exited).toBe(0);
  });

  test("type-checks as its `typecheck` script does (tsc with Bun's types, @types/bun)", async () => {
    const script = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.typecheck;
    expect(script).toBe('tsc -p tsconfig.json');
    await runToEnd(process.execPath, [TSC, '-p', 'tsconfig.json'], dir);
  }, 120_000);

  test('without experimentalDecorators in its tsconfig, stops at import naming that file and both options', async () => {
    const bare = scratchTemplate(TEMPLATE);
    try {
      const tsconfig = join(bare, 'tsconfig.json');
      writeFileSync(
        tsconfig,
        readFileSync(tsconfig, 'utf8').replace(/^\s*"(experimentalDecorators|emitDecoratorMetadata)": true,\n/gm, '')
      );
      expect(readFileSync(tsconfig, 'utf8')).not.toContain('Decorator');
      const failed = runToEnd(BUN!, bunScript(bare, 'start'), bare, { PORT: '0' });
      await expect(failed).rejects.toThrow(/exited 1/);
      const said = String(await failed.catch((error: Error) => error.message));
      expect(said).toContain(`Bun compiles the decorators of your TypeScript sources as standard (TC39) ones, because ${tsconfig}`);
      expect(said).toMatch(/"experimentalDecorators": true,\n\s+"emitDecoratorMetadata": true/);
      expect(said).not.toContain('object.constructor');
    } finally {
      removeScratch(bare);
    }
  }, 60_000);

  test('passes its own tests (bun test)', async () => {
    await runToEnd(BUN!, bunScript(dir, 'test'), dir);
  }, 180_000);
});
