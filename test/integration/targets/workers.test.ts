import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { connectTargetClient, expectBadHostRefused, runTargetScenario } from '../../helpers/target-scenario';
import { ROOT, removeScratch, runToEnd, scratchTemplate, type TargetServer } from '../../helpers/template-project';
import { linkWrangler, startWranglerDev, WRANGLER_INSTALL, WRANGLER_JS, wranglerEnv } from '../../helpers/wrangler-dev';

/**
 * The Cloudflare Workers target: the template examples/templates/workers (what `mcpfusion init
 * --template workers` writes), compiled by its own tsc and served by `wrangler dev` (workerd, on
 * 127.0.0.1, no account) against this repository's built package. 2026-07-28 clients run the
 * shared scenario (the question round travels as signed state, the Worker keeps no session);
 * 2025-era clients are refused, as the template chooses (see docs/deploy.md). Its own tests
 * (node:test, `wrangler dev` again) pass. workerd refuses the whole script if a module does at
 * import what a Worker forbids in global scope: the first `Ready` is that check too
 * (test/unit/runtime/import-time.test.ts checks the same in Node, module by module).
 *
 * wrangler is installed apart from the root lockfile (scripts/workerd/); without it the suite is
 * skipped, saying how to install it (CI installs it and counts a skip as a failure).
 */
const describeWithWrangler = existsSync(WRANGLER_JS) ? describe : describe.skip;
const skipped = existsSync(WRANGLER_JS)
  ? ''
  : ` (skipped: wrangler is not installed at ${WRANGLER_JS}; install it with: ${WRANGLER_INSTALL})`;

describeWithWrangler(`the Cloudflare Workers target (examples/templates/workers, wrangler dev)${skipped}`, () => {
  let dir: string;
  let server: TargetServer;

  beforeAll(async () => {
    dir = scratchTemplate(join(ROOT, 'examples', 'templates', 'workers'));
    linkWrangler(dir);
    // wrangler.jsonc's build command (npm run build: tsc) runs before wrangler bundles dist/.
    server = await startWranglerDev(dir, { STATE_KEY: randomBytes(32).toString('base64url') });
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    if (dir) removeScratch(dir);
  }, 60_000);

  test('serves the scenario to a 2026-07-28 client (statelessly: the question round travels as signed state)', async () => {
    await runTargetScenario({ url: server.url, era: '2026-07-28' });
  }, 120_000);

  test('refuses a 2025-11-25 client, naming the version it serves (a Worker keeps no session)', async () => {
    const client = new Client(
      { name: 'mcpfusion-target-check', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2025-11-25' } } }
    );
    await expect(client.connect(new StreamableHTTPClientTransport(server.url))).rejects.toThrow(/2026-07-28/);
    await client.close();
  }, 60_000);

  test('refuses a bad Host', async () => {
    await expectBadHostRefused(server.url);
  });

  test("a mutation sent while another runs waits in line, then runs (workerd would cancel a wait on another request's release as hung)", async () => {
    const client = await connectTargetClient(server.url, '2026-07-28');
    try {
      let firstProgress!: () => void;
      const progressed = new Promise<void>((resolve) => (firstProgress = resolve));
      const texts = Array.from({ length: 20 }, (_, i) => `queued ${i + 1}`);
      const importing = client.callTool(
        { name: 'notes.import', arguments: { texts } },
        { onprogress: () => firstProgress(), timeout: 120_000 }
      );
      await progressed;
      // The import holds the mutation lock now: this one waits in line for its release, another request's.
      const added = await client.callTool({ name: 'notes.add', arguments: { text: 'after the import' } });
      expect((await importing).isError).toBeFalsy();
      expect(added.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  }, 120_000);

  test('passes its own tests (node:test under wrangler dev)', async () => {
    await runToEnd(process.execPath, ['--test', 'test/'], dir, wranglerEnv(dir));
  }, 180_000);
});
