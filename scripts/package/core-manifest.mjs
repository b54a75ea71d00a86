#!/usr/bin/env node
// Writes packages/core/package.json, the manifest npm reads when the framework is installed from git
// with `#path:packages/core` (docs/getting-started.md), from the root package.json, which stays the one
// source of truth: the same name, version, entry points, files, dependencies and peers. Its only
// devDependencies are what compiling src/ needs (TypeScript, Node's types, the peers), so npm's git
// preparation installs those and nothing of the sample app, the tests or the docs tools.
//
//   node scripts/package/core-manifest.mjs           write it
//   node scripts/package/core-manifest.mjs --check   exit 1 (with the difference) when it is stale
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const target = join(root, 'packages', 'core', 'package.json');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// What `tsc` needs to compile src/ beyond the dependencies: the compiler, the type packages and the peers.
const buildOnly = ['typescript', '@types/node', '@types/cli-progress', ...Object.keys(pkg.peerDependencies ?? {})];
const devDependencies = {};
for (const name of buildOnly.sort()) {
  const range = pkg.devDependencies?.[name];
  if (!range) throw new Error(`core-manifest: ${name} is not a devDependency of the root package.json`);
  devDependencies[name] = range;
}

const copied = ['name', 'version', 'description', 'license', 'type', 'main', 'types', 'bin', 'exports', 'typesVersions',
  'files', 'engines', 'dependencies', 'peerDependencies', 'peerDependenciesMeta'];
const manifest = {
  '//': 'Generated from the root package.json by scripts/package/core-manifest.mjs: edit that one, then run it.',
  ...Object.fromEntries(copied.filter((key) => pkg[key] !== undefined).map((key) => [key, pkg[key]])),
  scripts: { prepare: 'node prepare.mjs' },
  devDependencies
};
const text = `${JSON.stringify(manifest, null, 2)}\n`;

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // missing: reported below
  }
  if (current !== text) {
    console.error('packages/core/package.json is stale: run `node scripts/package/core-manifest.mjs` and commit it.');
    const a = current.split('\n');
    const b = text.split('\n');
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (a[i] !== b[i]) console.error(`  line ${i + 1}:\n    committed: ${a[i] ?? '(none)'}\n    expected:  ${b[i] ?? '(none)'}`);
    }
    process.exit(1);
  }
  console.error('packages/core/package.json matches the root package.json.');
} else {
  writeFileSync(target, text);
  console.error(`wrote ${target}`);
}
