import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
 * The Deno target: examples/templates/deno (what `mcpfusion init --template deno` writes), its
 * TypeScript sources run by Deno (`npm:` specifiers in deno.json's imports; its compilerOptions
 * turn on legacy decorators and their metadata, which Deno 2.9 emits), served by `Deno.serve`
 * through `app.createHttpHandler().fetch`, against this repository's built package, and checked by
 * SDK clients of both eras (a long-lived process: 2025-era sessions live in it, as on Node). Its
 * own tests (`deno test`, which type-checks first) pass.
 *
 * The scratch copy resolves its packages from node_modules (`"nodeModulesDir": "manual"`, as
 * after `npm install`), not from the registry: every package a link into the root node_modules,
 * except @mcpfusion/core, which is a copy of package.json and dist/. Deno treats a file as part of
 * an npm package only where its real path is inside node_modules: through a link to this
 * repository it would be a local module, type-checked with Deno's own resolution (the
 * extensionless imports of dist/*.d.ts fail) and loaded without CommonJS named exports.
 *
 * Deno is installed apart from the root lockfile (scripts/runtimes); without it the suite is
 * skipped, saying how to install it (CI installs it and counts a skip as a failure).
 */
const TEMPLATE = join(ROOT, 'examples', 'templates', 'deno');
const DENO = runtimeBin('deno');
const describeWithDeno = DENO ? describe : describe.skip;
const skipped = DENO ? '' : ` (skipped: deno is not installed in scripts/runtimes; install it with: ${RUNTIMES_INSTALL})`;

/** The scratch copy, made to resolve everything from its node_modules (see above). */
function scratchDenoProject(): string {
  const dir = scratchTemplate(TEMPLATE);
  const core = join(dir, 'node_modules', '@mcpfusion', 'core');
  rmSync(core);
  mkdirSync(core);
  cpSync(join(ROOT, 'package.json'), join(core, 'package.json'));
  cpSync(join(ROOT, 'dist'), join(core, 'dist'), { recursive: true, filter: (source) => !source.endsWith('.tsbuildinfo') });
  const config = JSON.parse(readFileSync(join(dir, 'deno.json'), 'utf8')) as { nodeModulesDir?: string };
  config.nodeModulesDir = 'manual';
  writeFileSync(join(dir, 'deno.json'), `${JSON.stringify(config, null, 2)}\n`);
  return dir;
}

/** The template's `tasks[name]` (e.g. "deno run --allow-net --allow-env src/main.ts") as the arguments given to deno. */
function denoTask(dir: string, name: string): string[] {
  const task = (JSON.parse(readFileSync(join(dir, 'deno.json'), 'utf8')) as { tasks: Record<string, string> }).tasks[name];
  const [command, ...args] = task.split(/\s+/);
  if (command !== 'deno') throw new Error(`the template's "${name}" task does not run deno: ${task}`);
  return args;
}

describeWithDeno(`the Deno target (examples/templates/deno, Deno.serve)${skipped}`, () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let server: TargetServer | undefined;

  beforeAll(async () => {
    dir = scratchDenoProject();
    // Deno's cache (transpiled modules, type-check results) in the scratch copy: nothing left in $HOME.
    env = { DENO_DIR: join(dir, '.deno'), DENO_NO_UPDATE_CHECK: '1' };
    server = await startTarget({
      command: DENO!,
      args: denoTask(dir, 'start'),
      cwd: dir,
      env: { ...env, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production' },
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

  test('stops cleanly on SIGTERM (app.close, then the server)', async () => {
    const stopping = server!;
    server = undefined;
    const exited = new Promise<number | null>((resolve) => stopping.child.once('exit', (code) => resolve(code)));
    await stopping.stop();
    expect(await exited).toBe(0);
  });

  test('passes its own tests (deno test, after its type check)', async () => {
    await runToEnd(DENO!, denoTask(dir, 'test'), dir, env);
  }, 180_000);
});

describeWithDeno(`app.listen on Deno (its HTTP and stdio transports, node:http and process.stdin/stdout)${skipped}`, () => {
  let dir: string;
  let run: { command: string; args: string[]; cwd: string; env: NodeJS.ProcessEnv };
  beforeAll(() => {
    dir = scratchDenoProject();
    writeFileSync(join(dir, 'listen-main.ts'), LISTEN_MAIN);
    // The permissions the template's start task grants; stdio needs none more.
    run = {
      command: DENO!,
      args: ['run', '--allow-net', '--allow-env', 'listen-main.ts'],
      cwd: dir,
      env: { DENO_DIR: join(dir, '.deno'), DENO_NO_UPDATE_CHECK: '1' }
    };
  });
  afterAll(() => removeScratch(dir));

  test('over HTTP: the scenario, in both eras', async () => {
    await checkListenHttp(run);
  }, 120_000);

  test('over stdio: an SDK client spawns deno, lists the tools, calls one with progress', async () => {
    await checkListenStdio(run);
  }, 60_000);
});
