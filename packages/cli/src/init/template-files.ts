import { cpSync, existsSync, readdirSync, renameSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Copying a template, as `mcpfusion init` does and as the CLI's `npm pack` does (scripts/copy-templates.mjs
 * puts examples/starter and examples/templates/* into the package): one filter, so a project made from a
 * clone and one made from the published package hold the same files.
 */

/** Folders, at any depth, that an install, a build or a dev server writes: never part of a template. */
const GENERATED_FOLDERS = new Set(['node_modules', 'dist', '.wrangler', '.next', '.vercel', '.turbo', 'coverage']);

/**
 * Lockfiles: a new project resolves its own dependencies (the template's lock would pin the framework's
 * previous release, or a path in this repository). npm leaves only the root one out of a package itself.
 */
const LOCKFILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lock',
  'bun.lockb',
  'deno.lock'
]);

/**
 * Files npm drops from a package wherever they are (or reads as packing rules): the packed copy keeps
 * them under another name, and `init` gives them their own name back.
 */
const PACKED_NAMES: ReadonlyArray<readonly [own: string, packed: string]> = [
  ['.gitignore', '_gitignore'],
  ['.npmignore', '_npmignore'],
  ['.npmrc', '_npmrc']
];

/** Whether the file or folder at `path` (relative to the template, `/`-separated) belongs in a copy. */
export function isTemplateFile(path: string): boolean {
  const parts = path.split('/');
  const name = parts[parts.length - 1];
  if (parts.some((part) => GENERATED_FOLDERS.has(part))) return false;
  return !LOCKFILES.has(name) && !name.endsWith('.tgz') && !name.endsWith('.tsbuildinfo');
}

/**
 * Copies the template at `source` into `target` (created if missing), without what {@link isTemplateFile}
 * leaves out. `packed: true` (the package's copy) renames the files npm would drop; `false` (a project)
 * gives them their own names back, so it takes either kind of source.
 */
export function copyTemplate(source: string, target: string, packed: boolean): void {
  cpSync(source, target, {
    recursive: true,
    filter: (path) => {
      const rel = relative(source, path).split('\\').join('/');
      return rel === '' || isTemplateFile(rel);
    }
  });
  renameAll(target, packed);
}

/** Renames each file of {@link PACKED_NAMES} under `dir` to its packed name (`packed`) or back to its own. */
function renameAll(dir: string, packed: boolean): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      renameAll(join(dir, entry.name), packed);
      continue;
    }
    const pair = PACKED_NAMES.find(([own, stored]) => entry.name === (packed ? own : stored));
    if (pair === undefined) continue;
    const to = join(dir, packed ? pair[1] : pair[0]);
    // A template that ships both names keeps both: nothing of it is lost.
    if (!existsSync(to)) renameSync(join(dir, entry.name), to);
  }
}
