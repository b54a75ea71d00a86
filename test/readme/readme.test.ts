import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import * as ts from 'typescript';
import { FusionApp } from '../../src';
import { compileBlocks } from './doc-blocks';
import { InvoiceRepository, RefundTools } from './guide.examples';

/**
 * The documentation's code is real code: every TypeScript block of the README and of every
 * guide under docs/ compiles as shown, imports included, each a module of its own
 * (test/readme/doc-blocks.ts; what they import as `./billing` is test/readme/blocks/billing.ts,
 * "your own code"), every JSON block parses, every JavaScript block is a starter file, and the
 * quick start (and the guide's longer first server) runs as shown.
 */
const ROOT = join(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** The README and every guide, by path relative to the repository. */
const PAGES: ReadonlyArray<{ readonly path: string; readonly text: string }> = [
  { path: 'README.md', text: README },
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => ({ path: `docs/${name}`, text: readFileSync(join(ROOT, 'docs', name), 'utf8') }))
];
const ALL_TEXT = PAGES.map((page) => page.text).join('\n');

interface Block {
  readonly lang: string;
  readonly line: number;
  readonly code: string;
}

function blocks(markdown: string): Block[] {
  const out: Block[] = [];
  const fence = /^```(\w*)\n([\s\S]*?)^```$/gm;
  for (let match = fence.exec(markdown); match; match = fence.exec(markdown)) {
    out.push({ lang: match[1], line: markdown.slice(0, match.index).split('\n').length, code: match[2] });
  }
  return out;
}

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : filesUnder(path, pattern);
    return pattern.test(entry.name) ? [path] : [];
  });
}

/** Trimmed, non-empty lines: indentation is the README's to choose. */
const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

/** Whether `needle` occurs in `haystack` as consecutive lines. */
function contains(haystack: readonly string[], needle: readonly string[]): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return needle.length === 0;
}

const starterJs = filesUnder(join(ROOT, 'examples', 'starter'), /\.(js|json)$/);
const corpus = (files: readonly string[]) => files.map((file) => ({ file, lines: lines(readFileSync(file, 'utf8')) }));

/** Every fenced block of every page, with where it is. */
const ALL_BLOCKS = PAGES.flatMap((page) => blocks(page.text).map((b) => ({ ...b, page: page.path })));

describe('the README and the guides', () => {
  it('have code blocks to check, in the README and in most guides', () => {
    expect(blocks(README).filter((b) => b.lang === 'ts').length).toBeGreaterThanOrEqual(1);
    expect(ALL_BLOCKS.filter((b) => b.lang === 'ts').length).toBeGreaterThanOrEqual(20);
  });

  it('every TypeScript block compiles as shown, with its imports (a module of its own; `./billing` is "your code")', () => {
    expect(compileBlocks(ALL_BLOCKS.filter((b) => b.lang === 'ts'))).toEqual([]);
  }, 120_000);

  it('says how many values and names the root exports, as many as it does', () => {
    const program = ts.createProgram([join(ROOT, 'src', 'index.ts')], { experimentalDecorators: true, skipLibCheck: true, noEmit: true });
    const checker = program.getTypeChecker();
    const index = checker.getSymbolAtLocation(program.getSourceFile(join(ROOT, 'src', 'index.ts'))!)!;
    const exported = checker.getExportsOfModule(index);
    /** A name that exists at run time: a value where it is declared, re-exported at no step with `export type`. */
    const isValue = (symbol: ts.Symbol): boolean => {
      for (let s = symbol; ;) {
        if ((s.declarations ?? []).some((d) => ts.isTypeOnlyImportOrExportDeclaration(d))) return false;
        if (!(s.flags & ts.SymbolFlags.Alias)) return (s.flags & ts.SymbolFlags.Value) !== 0;
        const next = checker.getImmediateAliasedSymbol(s);
        if (!next || next === s) return (checker.getAliasedSymbol(s).flags & ts.SymbolFlags.Value) !== 0;
        s = next;
      }
    };
    const values = exported.filter(isValue).length;
    const saidNames = [...ALL_TEXT.matchAll(/(\d+) names\)/g)].map((m) => Number(m[1]));
    const saidValues = [...ALL_TEXT.matchAll(/(\d+) values,/g)].map((m) => Number(m[1]));
    expect(saidNames.length).toBeGreaterThan(0);
    expect(saidValues.length).toBeGreaterThan(0);
    expect({ names: saidNames, values: saidValues }).toEqual({
      names: saidNames.map(() => exported.length),
      values: saidValues.map(() => values)
    });
  }, 120_000);

  it('every block says its language, and is one the checks know or a shell, nginx, SQL, a terminal transcript or plain text', () => {
    // `console`: a terminal transcript (a command and what it prints); `sql`: a statement the sample app runs;
    // `dockerfile` and `ini` (a systemd unit): docs/deploy.md, checked by deploy.test.ts.
    const known = ['ts', 'json', 'js', 'sh', 'bash', 'nginx', 'text', 'console', 'sql', 'dockerfile', 'ini'];
    const unknown = ALL_BLOCKS.filter((b) => !known.includes(b.lang));
    expect(unknown.map((b) => `${b.page}:${b.line}: \`\`\`${b.lang}`)).toEqual([]);
  });

  it('every JSON block parses, and every JavaScript block is a file of the starter', () => {
    for (const b of ALL_BLOCKS.filter((x) => x.lang === 'json')) expect(() => JSON.parse(b.code)).not.toThrow();
    const sources = corpus(starterJs);
    for (const b of ALL_BLOCKS.filter((x) => x.lang === 'js')) expect(sources.some((s) => contains(s.lines, lines(b.code)))).toBe(true);
  });

  it.each([
    ['README.md', '## Quick start', 'quick-start.examples.ts'],
    ['docs/getting-started.md', '## A complete server in one file', 'first-server.examples.ts']
  ])('%s: the block under "%s" is the whole of %s', (path, heading, file) => {
    const text = PAGES.find((page) => page.path === path)!.text;
    const first = blocks(text.slice(text.indexOf(heading)))[0];
    expect(first.code).toBe(readFileSync(join(__dirname, file), 'utf8'));
  });

  it('the README stays a front page: at most 300 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(300);
  });
});

describe.each(['quick-start', 'first-server'])('the %s example', (example) => {
  it('runs as shown: it serves over HTTP, its tools answer, and SIGTERM stops it', async () => {
    const server = spawn(process.execPath, [join(ROOT, 'build', 'test', 'readme', `${example}.examples.js`)], {
      env: { ...process.env, PORT: '0' },
      stdio: ['ignore', 'ignore', 'pipe']
    });
    try {
      const url = await new Promise<URL>((resolve, reject) => {
        let seen = '';
        server.stderr.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          const match = /listening on (\S+)/.exec(seen);
          if (match) resolve(new URL(match[1]));
        });
        server.once('exit', (code) => reject(new Error(`the quick start exited (${String(code)}):\n${seen}`)));
      });
      const client = new Client({ name: 'readme', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(url));
      const invoice = await client.callTool({ name: 'billing.invoice', arguments: { id: 1 } });
      expect(invoice.structuredContent).toEqual({ id: 1, customer: 'ACME', amountCents: 12_000, status: 'open' });
      const progress: number[] = [];
      const report = await client.callTool(
        { name: 'report.generate', arguments: { quarter: 1 } },
        { onprogress: (p: { progress: number }) => progress.push(p.progress) }
      );
      expect(report.structuredContent).toEqual({ quarter: 1, invoices: 2, totalCents: 16_500 });
      expect((await client.callTool({ name: 'billing.void', arguments: { id: 2 } })).structuredContent).toMatchObject({ status: 'void' });
      await client.close();
      const exited = once(server, 'exit', { signal: AbortSignal.timeout(20_000) });
      server.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      expect(code).toBe(0);
    } finally {
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
      server.stderr.destroy();
    }
  });
});

describe("the README's refund snippet", () => {
  it('asks once; a "no" ends the call with the tool error "Refund cancelled" instead of asking again', async () => {
    const app = FusionApp.create({ tools: [RefundTools], providers: [InvoiceRepository], stateKey: 'r'.repeat(32) });
    let asked = 0;
    const no = await app.callTool(
      'billing.refund',
      { id: 1 },
      { onInput: () => (asked++, { action: 'accept', content: { confirm: false } }) }
    );
    expect(asked).toBe(1);
    expect(no).toEqual({ isError: true, content: [{ type: 'text', text: 'Refund cancelled' }] });
    const yes = await app.callTool('billing.refund', { id: 1 }, { answers: { confirm: true } });
    expect(yes.structuredContent).toMatchObject({ id: 1, status: 'refunded' });
    await app.close();
  });
});

describe('the documentation says what a newcomer needs', () => {
  it.each([
    ['the onProgress signature', 'onProgress(progress, message, total)'],
    ['that an aborted app.callTool resolves with isError', 'an aborted call (`options.signal`) all resolve with `isError: true`'],
    ['the middleware app option', '`middleware: [auditTrail, RateLimit]`'],
    ['what next() returns', '`next()`\nreturns a promise of what the rest of the chain returned'],
    ['that resource and prompt classes go in tools', "goes in the app's\n`tools: [...]` list"],
    ['the logger option', '| `logger(message)` |'],
    ['how to connect an SDK client', 'To connect an SDK client of your own'],
    ['which packages to install', 'npm install @mcpfusion/core tsyringe reflect-metadata class-validator class-transformer']
  ])('%s', (_what, text) => {
    // Table cells are padded to their column's width (prettier): runs of spaces count as one.
    const squeezed = (t: string): string => t.replace(/ {2,}/g, ' ');
    expect(squeezed(ALL_TEXT)).toContain(squeezed(text.replace(/\\n/g, '\n')));
  });
});
