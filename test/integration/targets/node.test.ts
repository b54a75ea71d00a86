import { join } from 'node:path';
import { expectBadHostRefused, runTargetScenario } from '../../helpers/target-scenario';
import { ROOT, removeScratch, runToEnd, scratchTemplate, startTarget, type TargetServer } from '../../helpers/template-project';

/**
 * The Node target: the starter (examples/starter, what `mcpfusion init --template node` writes),
 * compiled by its own tsc, served by `node dist/main.js` (the framework's `listen`) against this
 * repository's built package, and checked by SDK clients of both eras. Its own tests (jest) pass.
 */
describe('the Node target (examples/starter)', () => {
  let dir: string;
  let server: TargetServer;

  beforeAll(async () => {
    dir = scratchTemplate(join(ROOT, 'examples', 'starter'));
    await runToEnd(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], dir);
    server = await startTarget({
      command: process.execPath,
      args: ['dist/main.js'],
      cwd: dir,
      env: { PORT: '0', HOST: '127.0.0.1' },
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
      await runTargetScenario({ url: server.url, era });
    },
    60_000
  );

  test('refuses a bad Host', async () => {
    await expectBadHostRefused(server.url);
  });

  test('passes its own tests (jest; tsc compiled it above)', async () => {
    await runToEnd(process.execPath, [join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci'], dir);
  }, 180_000);
});
