import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { FusionApp } from '../../src';
import { parseCommandLine, type TypesCommand } from '../../packages/cli/src/options';
import type { Terminal } from '../../packages/cli/src/terminal';
import { runTypes } from '../../packages/cli/src/types-command';
import { createBillingApp } from '../../sample-app/app';
import { typeCheck } from '../helpers/compile-ts';

/** A terminal whose stdout and stderr are kept as text. */
function captured(): { terminal: Terminal; out: () => string; err: () => string } {
  const chunks = { out: [] as string[], err: [] as string[] };
  const stream = (into: string[]) => {
    const s = new PassThrough();
    s.on('data', (chunk: Buffer) => into.push(chunk.toString()));
    return s as unknown as NodeJS.WriteStream;
  };
  return {
    terminal: {
      out: stream(chunks.out),
      err: stream(chunks.err),
      in: new PassThrough() as unknown as NodeJS.ReadStream,
      interactive: false,
      colour: false
    },
    out: () => chunks.out.join(''),
    err: () => chunks.err.join('')
  };
}

describe('mcpfusion types against the sample app over HTTP', () => {
  let app: FusionApp;
  let url: URL;
  let dir: string;

  beforeAll(async () => {
    app = createBillingApp({ dbPath: ':memory:', stateKey: 'billing-desk-test-state-key-of-32-bytes-or-more' });
    ({ url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL });
    dir = mkdtempSync(join(tmpdir(), 'mcpfusion-types-'));
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const era of ['2025', '2026'] as const) {
    it(`${era}: writes every tool's input and output types and a ToolMap that compile, to stdout and to --out`, async () => {
      const stdout = captured();
      expect(await runTypes(parseCommandLine(['types', url.href, '--era', era]) as TypesCommand, stdout.terminal)).toBe(0);
      const text = stdout.out();
      expect(text).toMatch(/^\/\/ Tools of billing-desk 1\.0\.0 \(protocol 20\d\d-\d\d-\d\d\)\./);
      expect(text).toContain('export type BillingRefundInput = {');
      expect(text).toContain('export type BillingListOutput = {');
      expect(text).toMatch(/"billing\.refund": \{ input: BillingRefundInput; output: BillingRefundOutput \};/);

      const out = join(dir, `tools-${era}.ts`);
      const file = captured();
      expect(await runTypes(parseCommandLine(['types', url.href, '--era', era, '--out', out]) as TypesCommand, file.terminal)).toBe(0);
      expect(file.out()).toBe('');
      expect(file.err()).toMatch(/^wrote the types of \d+ tool\(s\) to /);
      expect(readFileSync(out, 'utf8')).toBe(text);

      // The same types again leave the file untouched, so builds that watch its modification time stay fresh.
      const past = new Date('2020-01-01T00:00:00Z');
      utimesSync(out, past, past);
      const again = captured();
      expect(await runTypes(parseCommandLine(['types', url.href, '--era', era, '--out', out]) as TypesCommand, again.terminal)).toBe(0);
      expect(again.err()).toMatch(/^the types of \d+ tool\(s\) in .* are up to date/);
      expect(statSync(out).mtimeMs).toBe(past.getTime());
    });
  }

  // Type-checked after both eras' requests: the compiler runs in this process and blocks it for
  // seconds, during which the server's keep-alive timer would close the client's pooled socket
  // under its feet (a stale socket the next request could pick up).
  for (const era of ['2025', '2026'] as const) {
    it(`${era}: the types compile for a client that uses them, and not for one that uses a field the server lacks`, () => {
      const out = join(dir, `tools-${era}.ts`);
      const good = join(dir, `good-${era}.ts`);
      writeFileSync(
        good,
        `import type { ToolMap, ToolName, BillingRefundInput } from './tools-${era}';\n` +
          `const name: ToolName = 'billing.refund';\n` +
          `const input: BillingRefundInput = { id: 3 };\n` +
          `type ListItems = ToolMap['billing.list']['output']['items'];\n` +
          `export const use = (items: ListItems) => [name, input, items.map((item) => item.id)];\n`
      );
      expect(typeCheck([out, good])).toEqual([]);
      const bad = join(dir, `bad-${era}.ts`);
      writeFileSync(
        bad,
        `import type { BillingRefundInput } from './tools-${era}';\nexport const input: BillingRefundInput = { invoiceId: 3 };\n`
      );
      expect(typeCheck([out, bad]).join('\n')).toMatch(/invoiceId/);
    });
  }
});
