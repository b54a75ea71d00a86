import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expectBadHostRefused, runTargetScenario, type TargetEra } from '../../helpers/target-scenario';
import {
  RUNTIMES,
  RUNTIMES_INSTALL,
  ROOT,
  removeScratch,
  runToEnd,
  runtimeBin,
  scratchTemplate,
  startTarget,
  type TargetServer
} from '../../helpers/template-project';

/**
 * The Hono target: examples/templates/hono (what `mcpfusion init --template hono` writes), compiled
 * once by its own tsc, then served by the same dist/main.js on Node (@hono/node-server) and on Bun
 * (Bun.serve), against this repository's built package. Hono hands the raw Request to the app's
 * `createHttpHandler().fetch`, and the process keeps the 2025-era sessions: SDK clients of both
 * eras run the scenario on each runtime. Its own tests (node:test) pass.
 *
 * Hono, its Node server and Bun are pinned in scripts/runtimes (apart from the root lockfile);
 * without them the suite is skipped, saying how to install them (CI counts a skip as a failure).
 */
const BUN = runtimeBin('bun');
const installed = BUN !== undefined && existsSync(join(RUNTIMES, 'hono')) && existsSync(join(RUNTIMES, '@hono', 'node-server'));
const describeInstalled = installed ? describe : describe.skip;
const skipped = installed
  ? ''
  : ` (skipped: hono, @hono/node-server or bun is missing from scripts/runtimes; install them with: ${RUNTIMES_INSTALL})`;
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const ERAS: readonly TargetEra[] = ['2026-07-28', '2025-11-25'];

describeInstalled(`the Hono target (examples/templates/hono)${skipped}`, () => {
  let dir: string;

  beforeAll(async () => {
    dir = scratchTemplate(join(ROOT, 'examples', 'templates', 'hono'));
    await runToEnd(process.execPath, [TSC, '-p', 'tsconfig.build.json'], dir);
  }, 120_000);

  afterAll(() => {
    if (dir) removeScratch(dir);
  });

  describe.each([
    ['Node', () => process.execPath],
    ['Bun', () => BUN!]
  ] as const)('on %s', (runtime, command) => {
    let server: TargetServer | undefined;

    beforeAll(async () => {
      server = await startTarget({
        command: command(),
        args: ['dist/main.js'],
        cwd: dir,
        env: { PORT: '0', HOST: '127.0.0.1' },
        ready: new RegExp(`listening on (http://127\\.0\\.0\\.1:\\d+)/mcp \\(${runtime}\\)`)
      });
    }, 60_000);

    afterAll(async () => {
      await server?.stop();
    });

    test.each(ERAS)(
      'serves the scenario to a %s client',
      async (era) => {
        await runTargetScenario({ url: server!.url, era });
      },
      60_000
    );

    test('refuses a bad Host', async () => {
      await expectBadHostRefused(server!.url);
    });

    test('stops cleanly on SIGTERM (the endpoint, the server and the app closed; nothing left open)', async () => {
      const exited = new Promise<number | null>((resolve) => server!.child.once('exit', (code) => resolve(code)));
      server!.child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }, 30_000);
  });

  test('passes its own tests (tsc, then node --test)', async () => {
    await runToEnd(process.execPath, [TSC, '-p', 'tsconfig.test.json'], dir);
    const tests = ['hono.test.js', 'tools.test.js'].map((file) => join('build', 'test', file));
    await runToEnd(process.execPath, ['--test', ...tests], dir);
  }, 180_000);
});
