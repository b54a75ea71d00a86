import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { connectTargetClient, expectBadHostRefused, runTargetScenario, type TargetEra } from '../../helpers/target-scenario';
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
 * The Next.js target: examples/templates/next (what `mcpfusion init --template next` writes), an
 * App Router route handler (app/mcp/route.ts exporting GET, POST and DELETE) backed by one
 * `createHttpHandler()` made lazily per server process. Built once by `next build` (Turbopack,
 * which compiles lib/'s decorators with their metadata from tsconfig's `experimentalDecorators` and
 * `emitDecoratorMetadata`), served by `next start` on 127.0.0.1 against this repository's built
 * package. `next start` is one long-lived process, so it keeps 2025-era sessions: SDK clients of both
 * eras run the scenario. Its own tests (node:test through the route's exported handlers) pass.
 *
 * The scratch copy lives under the repository's scratch/ (git-ignored): Turbopack compiles nothing
 * outside its workspace root (the folder of the nearest lockfile), and the copy's node_modules are
 * links into this repository. Nothing is cached between runs (the copy, its .next/ with it, is
 * removed). Next.js, React and @types/react are pinned in scripts/runtimes; without them the suite
 * is skipped, saying how to install them (CI counts a skip as a failure).
 */
const NEXT = runtimeBin('next');
const installed = NEXT !== undefined && ['react', 'react-dom', join('@types', 'react')].every((name) => existsSync(join(RUNTIMES, name)));
const describeInstalled = installed ? describe : describe.skip;
const skipped = installed
  ? ''
  : ` (skipped: next, react, react-dom or @types/react is missing from scripts/runtimes; install them with: ${RUNTIMES_INSTALL})`;
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const ERAS: readonly TargetEra[] = ['2026-07-28', '2025-11-25'];
/** No telemetry, and no prompt or install of a missing TypeScript package (Next.js does neither on CI). */
const NEXT_ENV = { NEXT_TELEMETRY_DISABLED: '1', CI: 'true' };

/** A port free on 127.0.0.1 now (`next start` prints the port it was given, so 0 would not tell). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * Puts a copy of the built package (package.json and dist/) at node_modules/@mcpfusion/core in
 * place of the link to this repository: Next's bundler externalizes `serverExternalPackages` only
 * for modules it finds inside a node_modules folder, and the link's real path is the repository's
 * dist/, which it would bundle. A copy is what an install leaves, so the build is the one users get.
 */
function installBuiltPackage(dir: string): void {
  const core = join(dir, 'node_modules', '@mcpfusion', 'core');
  rmSync(core, { force: true });
  mkdirSync(core);
  cpSync(join(ROOT, 'package.json'), join(core, 'package.json'));
  cpSync(join(ROOT, 'dist'), join(core, 'dist'), { recursive: true, filter: (source) => !source.endsWith('.tsbuildinfo') });
}

/** Every file of the server build's output under `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]
  );
}

describeInstalled(`the Next.js target (examples/templates/next)${skipped}`, () => {
  let dir: string;
  let server: TargetServer | undefined;

  beforeAll(async () => {
    dir = scratchTemplate(join(ROOT, 'examples', 'templates', 'next'), { under: join(ROOT, 'scratch', 'targets') });
    installBuiltPackage(dir);
    await runToEnd(process.execPath, [NEXT!, 'build'], dir, NEXT_ENV);
    server = await startTarget({
      command: process.execPath,
      args: [NEXT!, 'start', '-H', '127.0.0.1', '-p', String(await freePort())],
      cwd: dir,
      env: NEXT_ENV,
      ready: /Local:\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*Ready/
    });
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    if (dir) removeScratch(dir);
  });

  test.each(ERAS)(
    'serves the scenario to a %s client (next start keeps the sessions: one process)',
    async (era) => {
      await runTargetScenario({ url: server!.url, era });
    },
    60_000
  );

  test('the decorator metadata survived the build: input schemas come from the parameter types', async () => {
    const client = await connectTargetClient(server!.url, '2026-07-28');
    try {
      const { tools } = await client.listTools();
      const greet = tools.find((tool) => tool.name === 'greet');
      // GreetInput reached the framework only through design:paramtypes, which Turbopack's SWC emitted.
      expect(greet?.inputSchema).toMatchObject({
        required: ['name'],
        properties: { name: { type: 'string', minLength: 1, maxLength: 50 } }
      });
    } finally {
      await client.close();
    }
  });

  test('the framework is left to Node at run time (serverExternalPackages), not bundled into the route', () => {
    // A sentence of the framework's own source (src/di/injection-check.ts): in the build output only if it was bundled.
    const marker = 'takes constructor parameters but is not injectable';
    expect(readFileSync(join(ROOT, 'dist', 'di', 'injection-check.js'), 'utf8')).toContain(marker);
    const bundled = filesUnder(join(dir, '.next', 'server')).filter(
      (file) => file.endsWith('.js') && readFileSync(file, 'utf8').includes(marker)
    );
    expect(bundled).toEqual([]);
  });

  test('refuses a bad Host', async () => {
    await expectBadHostRefused(server!.url);
  });

  test('passes its own tests (tsc, then node --test through the route handlers)', async () => {
    await runToEnd(process.execPath, [TSC, '-p', 'tsconfig.test.json'], dir);
    await runToEnd(process.execPath, ['--test', join('build', 'test', 'route.test.js')], dir);
  }, 180_000);
});
