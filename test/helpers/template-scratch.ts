import { cp, mkdir, readFile, rm, symlink } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** The repository root (the built package is its dist/). */
export const ROOT = join(__dirname, '..', '..');
/** The runtimes installed apart from the root lockfile (bun, deno, next, react, hono, ...). */
export const RUNTIMES = join(ROOT, 'scripts', 'runtimes', 'node_modules');
/** The command that installs them; a suite that misses them is skipped saying so. */
export const RUNTIMES_INSTALL = 'npm ci --prefix scripts/runtimes';

/** A template copied to a scratch folder, its dependencies linked in; `remove()` deletes it. */
export interface ScratchTemplate {
  readonly dir: string;
  remove(): Promise<void>;
}

/**
 * Copies examples/templates/<name> to a fresh folder under the repository's scratch/ (git-ignored;
 * inside the repository so bundlers that refuse files outside their project root, Turbopack among
 * them, accept the links) and links its dependencies as an install would place them:
 * `@mcpfusion/core` is this repository (its exports, its dist/), the pinned runtimes come from
 * scripts/runtimes, everything else from the root node_modules. `bins` are linked into
 * node_modules/.bin so the template's own npm scripts find them. Nothing is cached between runs.
 */
export async function scratchTemplate(name: string, bins: Record<string, string> = {}): Promise<ScratchTemplate> {
  const source = join(ROOT, 'examples', 'templates', name);
  const dir = join(ROOT, 'scratch', 'targets', `${name}-${randomBytes(4).toString('hex')}`);
  await mkdir(dirname(dir), { recursive: true });
  await cp(source, dir, {
    recursive: true,
    filter: (path) => !/[/\\](node_modules|dist|build|\.next)$/.test(path)
  });
  const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
  for (const dependency of names) {
    const target =
      dependency === '@mcpfusion/core'
        ? ROOT
        : [join(RUNTIMES, dependency), join(ROOT, 'node_modules', dependency)].find((candidate) => existsSync(candidate));
    // A dependency neither install has (a dev tool the suite does not run) is left out.
    if (!target) continue;
    const link = join(dir, 'node_modules', dependency);
    await mkdir(dirname(link), { recursive: true });
    await symlink(target, link, 'dir');
  }
  await mkdir(join(dir, 'node_modules', '.bin'), { recursive: true });
  for (const [bin, target] of Object.entries(bins)) await symlink(target, join(dir, 'node_modules', '.bin', bin));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
