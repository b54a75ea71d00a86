import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What makes a copied template the user's project: its package.json named after the folder and asking
 * for this release of the framework (and of the CLI, a dev dependency), a Deno project's import map
 * asking for the same release through `npm:` specifiers, and a Worker named after the folder.
 */

/** The manifests a project may have: package.json (npm, Bun, Workers, Hono, Next.js), deno.json(c) (Deno). */
const DENO_FILES = ['deno.json', 'deno.jsonc'];

/** A Worker's configuration: its `name` is the Worker's, the one `wrangler deploy` publishes under. */
const WRANGLER_FILES = ['wrangler.jsonc', 'wrangler.json', 'wrangler.toml'];

interface PackageJson {
  name?: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** A package name made from a folder name: lower case, what npm allows, no leading dot or hyphen. */
export function packageName(folder: string): string {
  const name = folder
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '');
  return name === '' ? 'mcp-server' : name;
}

/**
 * Rewrites the manifests of the project in `dir` for `name` and the framework's `version` (the framework
 * and its CLI are released together, under one version): package.json, wrangler.json(c)/.toml and
 * deno.json(c), those it has. Returns the manifests it rewrote; none means the folder is no project.
 */
export function adoptProject(dir: string, name: string, version: string): string[] {
  const rewritten: string[] = [];
  const packageFile = join(dir, 'package.json');
  if (existsSync(packageFile)) {
    const manifest = JSON.parse(readFileSync(packageFile, 'utf8')) as PackageJson;
    manifest.name = name;
    // Where the template lists the framework (a dependency, as a server installs it), else as one.
    const owner = manifest.devDependencies?.['@mcpfusion/core'] !== undefined ? 'devDependencies' : 'dependencies';
    manifest[owner] = { ...manifest[owner], '@mcpfusion/core': `^${version}` };
    // The CLI (mcpfusion dev, list, call) is a development dependency, never a server's.
    manifest.devDependencies = { ...manifest.devDependencies, '@mcpfusion/cli': `^${version}` };
    writeFileSync(packageFile, `${JSON.stringify(manifest, null, 2)}\n`);
    rewritten.push('package.json');
  }
  for (const file of WRANGLER_FILES.filter((f) => existsSync(join(dir, f)))) {
    writeFileSync(join(dir, file), nameWorker(readFileSync(join(dir, file), 'utf8'), file.endsWith('.toml'), name));
    rewritten.push(file);
  }
  for (const file of DENO_FILES.filter((f) => existsSync(join(dir, f)))) {
    const text = readFileSync(join(dir, file), 'utf8');
    writeFileSync(join(dir, file), pinDenoImports(text, version));
    rewritten.push(file);
  }
  return rewritten;
}

/**
 * A deno.json(c) whose `npm:@mcpfusion/core` and `npm:@mcpfusion/cli` specifiers ask for `^version`
 * (a subpath such as `/advanced` kept), and whose import-map entries for `@mcpfusion/…` that point
 * anywhere else (a path into this repository) point at the npm release. The text is edited in place
 * where it can be, so a deno.jsonc keeps its comments.
 */
export function pinDenoImports(text: string, version: string): string {
  const pinned = text.replace(/npm:@mcpfusion\/(core|cli)(@[^/"'\s]*)?/g, (_all, pkg: string) => `npm:@mcpfusion/${pkg}@^${version}`);
  let config: { imports?: Record<string, unknown> };
  try {
    config = JSON.parse(pinned) as typeof config;
  } catch {
    return pinned; // deno.jsonc: comments; the specifiers are pinned, the rest is the template's
  }
  let changed = false;
  for (const [key, value] of Object.entries(config.imports ?? {})) {
    const match = /^@mcpfusion\/(core|cli)(\/.*)?$/.exec(key);
    if (!match || (typeof value === 'string' && value.startsWith('npm:@mcpfusion/'))) continue;
    config.imports![key] = `npm:@mcpfusion/${match[1]}@^${version}${match[2] ?? ''}`;
    changed = true;
  }
  return changed ? `${JSON.stringify(config, null, 2)}\n` : pinned;
}

/**
 * A wrangler configuration whose top-level `name` (the first `"name":` of wrangler.json(c), the first
 * `name =` line of wrangler.toml) is the project's, in the letters a Worker's name allows (lower case,
 * digits, hyphens). Edited as text, so a wrangler.jsonc keeps its comments.
 */
export function nameWorker(text: string, toml: boolean, name: string): string {
  const worker =
    name
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 63) || 'mcp-server';
  return toml
    ? text.replace(/^name\s*=\s*"[^"]*"/m, `name = "${worker}"`)
    : text.replace(/"name"(\s*):(\s*)"[^"]*"/, (_all, a: string, b: string) => `"name"${a}:${b}"${worker}"`);
}

/** The scripts (package.json) and tasks (deno.json) the project in `dir` declares; undefined where unreadable. */
export function projectScripts(dir: string): Set<string> | undefined {
  const names = new Set<string>();
  try {
    if (existsSync(join(dir, 'package.json')))
      for (const name of Object.keys((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson).scripts ?? {}))
        names.add(name);
    if (existsSync(join(dir, 'deno.json')))
      for (const name of Object.keys((JSON.parse(readFileSync(join(dir, 'deno.json'), 'utf8')) as { tasks?: object }).tasks ?? {}))
        names.add(name);
  } catch {
    return undefined;
  }
  if (existsSync(join(dir, 'deno.jsonc'))) return undefined; // comments: the tasks are not read
  return names;
}
