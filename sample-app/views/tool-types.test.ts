import type { FusionApp } from '@mcpfusion/core';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { parseCommandLine, type TypesCommand } from '../../packages/cli/src/options';
import type { Terminal } from '../../packages/cli/src/terminal';
import { runTypes } from '../../packages/cli/src/types-command';
import { createBillingApp } from '../app';
import { TEST_STATE_KEY } from '../test-helpers';

/** The tool types the views compile against, committed and rewritten by `npm run compile` (scripts/views/build-views.mjs). */
const COMMITTED = join(__dirname, 'app', 'tool-types.mts');

function quietTerminal(): Terminal {
  const sink = () => new PassThrough().resume() as unknown as NodeJS.WriteStream;
  return { out: sink(), err: sink(), in: new PassThrough() as unknown as NodeJS.ReadStream, interactive: false, colour: false };
}

describe("the views' tool types", () => {
  let app: FusionApp;
  let dir: string;

  beforeAll(() => {
    app = createBillingApp({ dbPath: ':memory:', stateKey: TEST_STATE_KEY });
    dir = mkdtempSync(join(tmpdir(), 'views-types-'));
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('are what `mcpfusion types` writes for the sample app today (run npm run compile to rewrite them)', async () => {
    const { url } = (await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, handleSignals: false })) as { url: URL };
    const out = join(dir, 'tool-types.mts');
    const command = parseCommandLine(['types', url.href, '--era', '2026', '--out', out]) as TypesCommand;
    expect(await runTypes(command, quietTerminal())).toBe(0);
    expect(readFileSync(COMMITTED, 'utf8')).toBe(readFileSync(out, 'utf8'));
  });
});
