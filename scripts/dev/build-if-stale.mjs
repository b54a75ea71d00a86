#!/usr/bin/env node
// Builds dist/ and build/ (`npm run compile`) only when a source changed since the last
// successful build, so a second `npm start` starts the server at once. "Changed" is by
// modification time: any file under the compiled folders, a tsconfig, or package.json newer
// than the stamp this script writes after a build that succeeded.
//
//   node scripts/dev/build-if-stale.mjs            build when stale (what `npm run dev` runs)
//   node scripts/dev/build-if-stale.mjs --stamp    only record that the build is fresh (after `npm run compile`)
//
// `npm start` imports `buildIfStale` (scripts/dev/start.mjs) and runs the server in the same process.
// The check is stats only (no compiler is loaded or spawned unless a source is newer than the stamp).
// stdout stays clean (a stdio server may follow it): what it says goes to stderr.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const STAMP = join(ROOT, 'build', '.fresh-stamp');
const FOLDERS = ['src', 'packages/cli/src', 'sample-app', 'test', 'bench'];
const FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json', 'dev/package.json', 'packages/cli/package.json'];
const OUTPUTS = ['build/sample-app/main.js', 'dist/index.js', 'packages/cli/dist/main.js'];
// Written by the compile itself (scripts/views/build-views.mjs), from sources that are inputs already:
// counting them would make every compile leave a source newer than its stamp.
const GENERATED = new Set([join(ROOT, 'sample-app', 'views', 'app', 'tool-types.mts')]);

function newestUnder(dir) {
  let newest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') newest = Math.max(newest, newestUnder(path));
    } else if (/\.(ts|mts|cts|json|html|css)$/.test(entry.name) && !GENERATED.has(path)) {
      newest = Math.max(newest, statSync(path).mtimeMs);
    }
  }
  return newest;
}

const mtime = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
};

function stamp() {
  mkdirSync(dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
}

/**
 * Compiles (`npm run compile`) when a source is newer than the stamp or an output is missing, else
 * says it is up to date. Exits the process when there is nothing to run (no dev/ workspace, a failed
 * compile).
 */
export function buildIfStale() {
  // An archive of the repository (a git host's download) leaves out the dev workspace (.gitattributes):
  // the sample app, tests and bench need it, and npm ci installs it only in a clone.
  if (!statSync(join(ROOT, 'dev', 'package.json'), { throwIfNoEntry: false })) {
    process.stderr.write(
      '[build] this copy has no dev/ workspace (an archive of the repository leaves it out): clone the repository to run the sample app\n'
    );
    process.exit(1);
  }
  const built = mtime(STAMP);
  const outputsThere = OUTPUTS.every((path) => mtime(join(ROOT, path)) !== undefined);
  const newest = Math.max(...FOLDERS.map((f) => newestUnder(join(ROOT, f))), ...FILES.map((f) => mtime(join(ROOT, f)) ?? 0));
  if (built !== undefined && outputsThere && newest <= built) {
    process.stderr.write('[build] up to date (nothing changed since the last build)\n');
    return;
  }
  process.stderr.write('[build] compiling (npm run compile)\n');
  // The stamp is taken before the compile: a file saved while tsc runs makes the next start compile again.
  const startedAt = new Date();
  const result = spawnSync('npm', ['run', '--silent', 'compile'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) process.exit(result.status ?? 1);
  stamp();
  utimesSync(STAMP, startedAt, startedAt);
}

// Run as a program (not imported by start.mjs).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.includes('--stamp')) stamp();
  else buildIfStale();
}
