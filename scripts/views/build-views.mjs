#!/usr/bin/env node
// Builds the sample app's views (sample-app/views/app) into complete HTML documents, offline:
//   1. writes the tool types with the real `mcpfusion types` against the built sample app over stdio
//      (sample-app/views/app/tool-types.mts, committed; a renamed field then fails step 2);
//   2. type-checks the views (strict, DOM) when the types changed or with --check (in `npm run compile`
//      the project's tsc has just checked them against the committed types);
//   3. bundles each view with the ext-apps browser bundle (esbuild, one IIFE, no imports left)
//      and writes it with view.css and its markup (<name>.html, what goes in the view's <main>) into one
//      document with the head and frame every view shares (documentOf): build/views/<name>.html.
// The documents load nothing at run time, so they work under the MCP Apps default CSP.
//
//   node scripts/views/build-views.mjs                 1, 2 if the types changed, 3 (what `npm run compile` runs)
//   node scripts/views/build-views.mjs --check         1, 2 and 3 (`npm run build:views`)
//   node scripts/views/build-views.mjs --skip-types    3 only (the browser tests; no build of the server needed)
//
// stdout stays clean; what it says goes to stderr.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SOURCES = join(ROOT, 'sample-app', 'views', 'app');
const OUT = join(ROOT, 'build', 'views');
const TYPES = join(SOURCES, 'tool-types.mts');
/** Each view: its entry module and its markup (`<name>.mts`, `<name>.html`), and its document's title. */
export const VIEWS = [
  { name: 'invoice-desk', title: 'Invoice desk' },
  { name: 'rebuild-panel', title: 'Rebuild of the monthly aggregates' }
];

const require = createRequire(import.meta.url);
const say = (line) => process.stderr.write(`[views] ${line}\n`);

function fail(message) {
  say(message);
  process.exit(1);
}

/** Writes the types; whether they changed. */
function writeToolTypes() {
  const before = readFileSync(TYPES, 'utf8');
  const cli = join(ROOT, 'packages', 'cli', 'dist', 'main.js');
  const server = join(ROOT, 'build', 'sample-app', 'main.js');
  const data = mkdtempSync(join(tmpdir(), 'views-types-'));
  try {
    const run = spawnSync(
      process.execPath,
      [cli, 'types', '--stdio', `"${process.execPath}" "${server}" --stdio`, '--era', '2026', '--out', TYPES],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, BILLING_DB: join(data, 'billing.db'), FUSION_STATE_KEY: 'views-build-state-key-of-32-bytes-or-more!' }
      }
    );
    if (run.status !== 0) fail(`mcpfusion types failed (build the server first: npm run compile):\n${run.stderr}`);
    say(run.stderr.trim().split('\n').pop());
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
  return readFileSync(TYPES, 'utf8') !== before;
}

function typeCheck() {
  const ts = require('typescript');
  const program = ts.createProgram(
    VIEWS.map(({ name }) => join(SOURCES, `${name}.mts`)),
    {
      strict: true,
      noEmit: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: true
    }
  );
  const problems = ts.getPreEmitDiagnostics(program);
  if (problems.length > 0) {
    const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' };
    fail(`the views do not type-check:\n${ts.formatDiagnostics(problems, host)}`);
  }
}

const escapeHtml = (text) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/**
 * A view's whole document: the head every view shares (charset, viewport, title, the inlined style), then its
 * markup in the frame every view has (`<main class="view">`), then its script.
 */
function documentOf({ title, style, markup, script }) {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '  <head>',
    '    <meta charset="utf-8" />',
    '    <meta name="viewport" content="width=device-width, initial-scale=1" />',
    `    <title>${escapeHtml(title)}</title>`,
    `    <style>\n${style}</style>`,
    '  </head>',
    '  <body>',
    '    <main class="view">',
    markup.replace(/^(?=.)/gm, '      ') + '    </main>',
    `    <script>\n${script}</script>`,
    '  </body>',
    '</html>',
    ''
  ].join('\n');
}

async function bundle() {
  const esbuild = require('esbuild');
  const style = readFileSync(join(SOURCES, 'view.css'), 'utf8');
  mkdirSync(OUT, { recursive: true });
  for (const { name, title } of VIEWS) {
    const built = await esbuild.build({
      entryPoints: [join(SOURCES, `${name}.mts`)],
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
      minify: true,
      legalComments: 'none',
      write: false,
      logLevel: 'error'
    });
    const script = built.outputFiles[0].text;
    // Inlined into <script>: a closing tag inside would end it early (esbuild escapes them; checked anyway).
    if (/<\/script/i.test(script)) fail(`${name}: the bundle contains "</script"`);
    const markup = readFileSync(join(SOURCES, `${name}.html`), 'utf8');
    if (/<(?:!doctype|html|head|body|main)\b/i.test(markup))
      fail(`${name}.html is what goes in the view's <main>: the document around it is written here`);
    const html = documentOf({ title, style, markup, script });
    writeFileSync(join(OUT, `${name}.html`), html);
    say(`built build/views/${name}.html (${Math.round(html.length / 1024)} KiB)`);
  }
}

const typesChanged = !process.argv.includes('--skip-types') && writeToolTypes();
if (typesChanged || process.argv.includes('--check')) typeCheck();
await bundle();
