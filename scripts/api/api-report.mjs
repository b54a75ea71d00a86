#!/usr/bin/env node
// The API report: what each entry point of the package (package.json `exports`, `./package.json`
// aside) exports, as Microsoft API Extractor prints it from the built declarations (dist/*.d.ts),
// committed as etc/<name>.api.md (`.` is etc/core.api.md, `./advanced` etc/core-advanced.api.md, …).
// A change of the public surface therefore shows in review as a change of those files.
//
//   node scripts/api/api-report.mjs           rewrite etc/*.api.md from dist/ (npm run api:report)
//   node scripts/api/api-report.mjs --check   fail, printing the diff, if etc/*.api.md differ from dist/,
//                                             or if an exported name has no doc comment (npm run api:check)
//
// Both modes also check that every name an entry point exports has a doc comment (on its declaration,
// or, for a name re-exported from another package, on the re-export in our sources), and, across the
// reports (scripts/api/surface-rules.cjs), that the root's report has no `ae-forgotten-export` at all (the
// root exports every type its signatures use), that no other public signature uses a type no entry point
// exports, and that no two declarations collide (a `Name_2`). A report is
// written as Prettier formats it (the repo's .prettierrc.json), so `npm run format` leaves it alone.
// Run after `npm run build` (the npm scripts do). Exit status 0 only if every entry point passed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import surfaceRules from './surface-rules.cjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(path.join(root, 'package.json'));
const { CompilerState, Extractor, ExtractorConfig, ExtractorLogLevel } = require('@microsoft/api-extractor');
const ts = require('typescript');
const prettier = require('prettier');

const { ROOT_REPORT, surfaceProblems } = surfaceRules;
const check = process.argv.includes('--check');
const pkgPath = path.join(root, 'package.json');
const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
const reportFolder = path.join(root, 'etc');
// API Extractor writes its own report here; the committed one is that, formatted, in etc/.
const workFolder = path.join(root, 'build', 'api');
mkdirSync(path.join(workFolder, 'copied'), { recursive: true });
mkdirSync(reportFolder, { recursive: true });

/** One report per entry point of `exports`: `.` is `core`, `./advanced` is `core-advanced`. */
const entries = Object.entries(pkg.exports)
  .filter(([subpath]) => subpath !== './package.json')
  .map(([subpath, target]) => {
    const types = typeof target === 'object' ? target.types : undefined;
    if (!types) throw new Error(`package.json exports["${subpath}"] has no "types": the API report reads the declarations`);
    const name = subpath === '.' ? ROOT_REPORT : `${ROOT_REPORT}-${subpath.slice(2).replace(/\//g, '-')}`;
    return { subpath, name, dts: path.join(root, types), report: path.join(reportFolder, `${name}.api.md`) };
  });

for (const entry of entries) {
  if (!existsSync(entry.dts)) {
    console.error(`[api] ${path.relative(root, entry.dts)} is missing: run npm run build first`);
    process.exit(1);
  }
}

const configOf = (entry) => ({
  projectFolder: root,
  mainEntryPointFilePath: entry.dts,
  bundledPackages: [],
  newlineKind: 'lf',
  compiler: {
    // The declarations only: the compiler options the build emitted them with, none of tsconfig.json's files.
    overrideTsconfig: {
      compilerOptions: {
        target: 'ES2022',
        module: 'node16',
        moduleResolution: 'node16',
        lib: ['ES2022', 'DOM'],
        types: ['node'],
        strict: true,
        skipLibCheck: true
      },
      files: [entry.dts]
    },
    skipLibCheck: true
  },
  apiReport: {
    enabled: true,
    reportFileName: `${entry.name}.api.md`,
    // API Extractor's own copy and comparison are not used (see `compare` below): both folders are scratch.
    reportFolder: path.join(workFolder, 'copied'),
    reportTempFolder: workFolder,
    // Types the entry point's API uses but does not export are printed too (marked ae-forgotten-export),
    // so a change to one of them is visible here as well.
    includeForgottenExports: true
  },
  docModel: { enabled: false },
  dtsRollup: { enabled: false },
  tsdocMetadata: { enabled: false },
  messages: {
    compilerMessageReporting: { default: { logLevel: 'error' } },
    extractorMessageReporting: {
      default: { logLevel: 'warning' },
      // Not used by this package: no release tags (@public/@beta), no @internal underscores.
      'ae-missing-release-tag': { logLevel: 'none' },
      'ae-internal-missing-underscore': { logLevel: 'none' },
      // Kept in the report itself (a reviewer sees which used types the entry point does not export); the rules
      // across the reports fail on any in the root's report, and on one no entry point exports in the others.
      'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: true },
      // Members without their own comment are marked `(undocumented)` in the report; exported names are
      // checked below (every one must have a comment).
      'ae-undocumented': { logLevel: 'none' },
      // `{@link X}` in a comment names X in the source, which an entry point need not export (a subpath's
      // comment may link a root name): a reference for the reader, not an API claim.
      'ae-unresolved-link': { logLevel: 'none' }
    },
    // The comments are Markdown-flavoured JSDoc rather than strict TSDoc: its syntax complaints are not failures.
    tsdocMessageReporting: { default: { logLevel: 'none' } }
  }
});

/**
 * The exported names of an entry point that carry no doc comment. A name's comment is the last
 * comment before its declaration (a variable's, before its statement), or, for a name re-exported
 * from another package, before the `export { … } from '…'` statement that brings it in.
 */
function undocumented(program, dts) {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(dts);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) return [`(could not read ${path.relative(root, dts)})`];
  const hasDoc = (node) => {
    for (let n = node; n && !ts.isSourceFile(n); n = n.parent) {
      const text = n.getSourceFile().getFullText();
      const last = (ts.getLeadingCommentRanges(text, n.getFullStart()) ?? []).at(-1);
      if (last && text.startsWith('/**', last.pos)) return true;
      // A variable's comment sits on its statement; an export specifier's on its declaration.
      if (!(ts.isVariableDeclaration(n) || ts.isVariableDeclarationList(n) || ts.isExportSpecifier(n) || ts.isNamedExports(n))) break;
    }
    return false;
  };
  const missing = [];
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    let symbol = exported;
    const chain = [];
    while (symbol.flags & ts.SymbolFlags.Alias) {
      chain.push(...(symbol.declarations ?? []));
      const next = checker.getImmediateAliasedSymbol(symbol);
      if (!next || next === symbol) break;
      symbol = next;
    }
    const declarations = symbol.declarations ?? [];
    const external = declarations.length > 0 && declarations.every((d) => d.getSourceFile().fileName.includes('/node_modules/'));
    const documented = external ? chain.some(hasDoc) : declarations.some(hasDoc);
    if (!documented) missing.push(exported.name);
  }
  return missing.sort();
}

/** A unified diff of the committed report and the generated one (git, else diff, else nothing). */
function diffOf(committed, generated) {
  const rel = (f) => path.relative(root, f);
  for (const [cmd, args] of [
    ['git', ['diff', '--no-index', '--no-color', '--', rel(committed), rel(generated)]],
    ['diff', ['-u', rel(committed), rel(generated)]]
  ]) {
    const run = spawnSync(cmd, args, { cwd: root, encoding: 'utf8' });
    if (!run.error && run.status === 1) return run.stdout;
  }
  return `(no diff tool: compare ${rel(committed)} with ${rel(generated)})\n`;
}

const docProgram = ts.createProgram(
  entries.map((e) => e.dts),
  {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    types: ['node'],
    skipLibCheck: true,
    noEmit: true
  }
);
const prettierOptions = (await prettier.resolveConfig(path.join(reportFolder, 'x.api.md'))) ?? {};
let failures = 0;
let compilerState; // one compiler analysis for every entry point
const generatedReports = []; // every entry point's report as generated, for the rules across them
for (const entry of entries) {
  const label = `${entry.subpath === '.' ? pkg.name : `${pkg.name}${entry.subpath.slice(1)}`} (${path.relative(root, entry.report)})`;
  const config = ExtractorConfig.prepare({ configObject: configOf(entry), configObjectFullPath: undefined, packageJsonFullPath: pkgPath });
  compilerState ??= CompilerState.create(config, { additionalEntryPoints: entries.map((e) => e.dts) });
  const problems = [];
  const result = Extractor.invoke(config, {
    compilerState,
    localBuild: true,
    messageCallback: (message) => {
      // The report-file notices are about API Extractor's own copy, which is not the committed one.
      const aboutItsCopy = String(message.messageId).startsWith('console-api-report');
      if (!aboutItsCopy && (message.logLevel === ExtractorLogLevel.Error || message.logLevel === ExtractorLogLevel.Warning))
        problems.push(message.formatMessageWithLocation(root));
      message.handled = true;
    }
  });
  const generatedRaw = path.join(workFolder, `${entry.name}.api.md`);
  const generated = path.join(workFolder, `${entry.name}.formatted.api.md`);
  const text = await prettier.format(readFileSync(generatedRaw, 'utf8'), { ...prettierOptions, filepath: entry.report });
  writeFileSync(generated, text);
  generatedReports.push({ file: path.relative(root, entry.report), text });
  const committed = existsSync(entry.report) ? readFileSync(entry.report, 'utf8') : undefined;
  const changed = committed !== text;
  const missingDocs = undocumented(docProgram, entry.dts);
  if (missingDocs.length > 0) problems.push(`exported without a doc comment: ${missingDocs.join(', ')}`);
  if (check && changed) {
    problems.push(
      committed === undefined
        ? `${path.relative(root, entry.report)} is missing: run npm run api:report and commit it`
        : `the committed report differs from the build: run npm run api:report and commit ${path.relative(root, entry.report)}\n` +
            diffOf(entry.report, generated).replace(/^/gm, '    ')
    );
  }
  if (!check && changed) writeFileSync(entry.report, text);
  const failed = result.errorCount > 0 || missingDocs.length > 0 || (check && changed);
  if (failed) failures++;
  console.log(`${failed ? 'FAIL' : check ? 'ok  ' : changed ? 'wrote' : 'same '} ${label}`);
  for (const p of problems) console.log(`  ${p}`);
  if (result.errorCount > 0 && problems.length === 0) console.log(`  API Extractor reported ${result.errorCount} error(s)`);
}
const across = surfaceProblems(generatedReports);
if (across.length > 0) failures++;
console.log(
  `${across.length > 0 ? 'FAIL' : 'ok  '} across the ${generatedReports.length} reports: forgotten exports (none in the root's) and colliding names`
);
for (const p of across) console.log(`  ${p}`);
process.exit(failures > 0 ? 1 : 0);
