// The rules the API reports must keep, across every entry point (scripts/api/api-report.mjs applies
// them; test/unit/api/surface-rules.test.ts holds them to their word):
//
// 1. The package root exports every type its own signatures use. API Extractor marks a type a report
//    uses but its entry point does not export with `ae-forgotten-export`; the root's report
//    (etc/core.api.md) may have none at all, not even of a name another entry point exports: a reader of
//    `app.listen` finds `ListenOptions` where `FusionApp` is. Type-only exports cost nothing at run time.
// 2. No type in another entry point's signatures that no entry point exports. A name another entry point
//    exports is fine there (the root's `FusionError` in the Redis report: a user imports it from the root);
//    a name no entry point exports is a type the user meets and cannot name.
// 3. No colliding names. Two declarations of one name in a report (ours, or ours and a global such as
//    the DOM's `ProgressEvent`) make API Extractor rename one `Name_2`: the user's import of the name
//    shadows the other.
//
// CommonJS, so that both the ESM script and the jest tests (CommonJS) can load it.
'use strict';

const DECLARATION = /^(?:export )?(?:declare )?(?:abstract )?(?:class|interface|type|function|const|let|var|enum|namespace) ([A-Za-z_$][\w$]*)/gm;
const EXPORTED_DECLARATION = /^export (?:declare )?(?:abstract )?(?:class|interface|type|function|const|let|var|enum|namespace) ([A-Za-z_$][\w$]*)/gm;
const EXPORT_LIST = /^export (?:type )?\{([^}]*)\}/gm;
const FORGOTTEN = /ae-forgotten-export\)\s+The symbol "([^"]+)"/g;
/** How API Extractor renames the second of two declarations of one name. */
const RENAMED = /^(.+)_(\d+)$/;
/** The report of the package root (`.` in package.json `exports`); api-report.mjs names the others `core-<subpath>`. */
const ROOT_REPORT = 'core';
/** Whether a report (`etc/core.api.md`, as the messages name it) is the package root's. */
const isRootReport = (file) => /(?:^|[\\/])([^\\/]+)\.api\.md$/.exec(file)?.[1] === ROOT_REPORT;

/** The names a report exports: its `export` declarations, and the names of its `export { … }` lists. */
function exportedNames(text) {
  const names = new Set();
  for (const m of text.matchAll(EXPORTED_DECLARATION)) names.add(m[1]);
  for (const m of text.matchAll(EXPORT_LIST)) {
    for (const part of m[1].split(',')) {
      const name = part.trim().split(/\s+as\s+/).pop();
      if (name) names.add(name);
    }
  }
  return names;
}

/**
 * What is wrong with a set of API reports, one message per name, each saying what to do.
 * `reports`: `[{ file, text }]`, `file` as the message names it (`etc/core.api.md`).
 */
function surfaceProblems(reports) {
  const exported = new Map(); // name -> files that export it
  const forgotten = new Map(); // name -> files
  const renamed = new Map(); // Name_2 -> files
  const note = (map, name, file) => {
    if (!map.has(name)) map.set(name, new Set());
    map.get(name).add(file);
  };
  for (const { file, text } of reports) {
    for (const name of exportedNames(text)) note(exported, name, file);
    for (const m of text.matchAll(FORGOTTEN)) note(forgotten, m[1], file);
    const declared = [...text.matchAll(DECLARATION)].map((m) => m[1]);
    const listed = [...text.matchAll(EXPORT_LIST)].flatMap((m) => m[1].split(',').map((part) => part.trim().split(/\s+/)[0]));
    for (const name of [...declared, ...listed, ...[...text.matchAll(FORGOTTEN)].map((m) => m[1])]) {
      if (RENAMED.test(name)) note(renamed, name, file);
    }
  }
  const where = (files) => [...files].sort().join(', ');
  // Code-unit order: the same messages in the same order everywhere.
  const byName = ([a], [b]) => (a < b ? -1 : a > b ? 1 : 0);
  const problems = [];
  for (const [name, files] of [...renamed].sort(byName)) {
    const original = RENAMED.exec(name)[1];
    problems.push(
      `"${name}" (${where(files)}): two declarations are named "${original}" (two of ours, or ours and a global such as a DOM type), ` +
        `so API Extractor renamed one. Rename ours, or give the exported value an explicit type instead of \`typeof ${original}\`.`
    );
  }
  for (const [name, files] of [...forgotten].sort(byName)) {
    if (RENAMED.test(name)) continue;
    const root = [...files].find(isRootReport);
    if (root !== undefined) {
      const elsewhere = exported.has(name) ? ` (only ${where(exported.get(name))} does, which is not enough)` : '';
      problems.push(
        `"${name}" is used in a signature of the package root (${where(files)}) but the root does not export it${elsewhere}: ` +
          `export it from src/index.ts, type-only and with a doc comment (\`export type { ${name} } from '…'\`, beside the ` +
          `names whose signatures use it). The root exports every type its own signatures use; a type-only export costs ` +
          `nothing at run time.`
      );
    } else if (!exported.has(name)) {
      problems.push(
        `"${name}" is used in a public signature (${where(files)}) but no entry point exports it: export it, with a doc ` +
          `comment, from the entry point whose users meet it (src/index.ts, src/advanced.ts, src/testing/index.ts, ` +
          `src/redis/index.ts), or change the signature so that the internal type does not appear in it.`
      );
    }
  }
  return problems;
}

module.exports = { ROOT_REPORT, exportedNames, isRootReport, surfaceProblems };
