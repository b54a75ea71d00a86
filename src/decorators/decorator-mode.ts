import type { Dirent } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { ConfigurationError } from '../errors';
import { bunTypeScriptEntry, tsconfigWithoutLegacyDecorators } from './transpiler-config';

/**
 * The framework needs TypeScript's legacy decorators (`experimentalDecorators`) and their type
 * metadata (`emitDecoratorMetadata`). Compiled without the first, a program's decorators are
 * TC39 standard decorators: class-validator's run first (they decorate the input classes) and
 * crash inside class-validator, long before a decorator of ours could say anything. So the check
 * is made when the framework is loaded: the compiled modules that are loading it (the module
 * that imports it and the ones that import that, and the entry file) and the compiled files
 * beside them (the same build) are read, and one that carries a standard decorators' helper
 * stops the program with a message naming the options to set and the file to put them in.
 *
 * This is the one module that does I/O at import (synchronous reads of the importers' files), on
 * purpose: it must run before the importers' decorators do. `node:fs` is loaded only when there is
 * a file to read: in a bundle (a Cloudflare Worker's) a module has no `parent` and no `process.argv[1]`,
 * so nothing is read and `node:fs` is never loaded.
 */

/** `node:fs`, loaded on first use (see above). */
function fs(): typeof import('node:fs') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
  return require('node:fs') as typeof import('node:fs');
}

/**
 * The helpers each compiler emits for standard decorators: tsc's `__esDecorate` (also
 * `tslib.__esDecorate` with `importHelpers`), swc's `_apply_decs_2203_r` / `_apply_decs_2311`
 * (`jsc.transform.decoratorVersion` 2022-03 or 2023-11; also required from `@swc/helpers`). esbuild
 * refuses to compile parameter decorators (`@Input()`) as standard ones, naming the flag itself.
 */
const STANDARD_DECORATORS = /\b(__esDecorate|_apply_decs_\d{4}\w*)\b/;
/** Which compiler a standard-decorator helper comes from: the fix is named in that compiler's options. */
type Compiler = 'tsc' | 'swc';
/** Compiled files are read this far: the helper is emitted at the top of a module (with `importHelpers`, at its first class). */
const READ_LIMIT = 1 << 18;

/**
 * The error that names the options to set: the two tsconfig flags, and the tsconfig file when one
 * is found above `compiled`; for a file swc compiled, swc's own two options.
 */
export function standardDecoratorsError(compiled: string | undefined, where?: string, compiler: Compiler = 'tsc'): ConfigurationError {
  const tsconfig = compiled ? nearestTsconfig(dirname(compiled)) : undefined;
  const file = tsconfig ?? 'your tsconfig.json';
  const what = compiled ? `${compiled} was compiled` : `${where ?? 'A decorated class'} was compiled`;
  const by = compiler === 'swc' ? ' by swc' : '';
  const fix =
    compiler === 'swc'
      ? 'Set in your swc options (.swcrc, or the options of @swc/jest / swc-loader):\n' +
        '    "jsc": { "parser": { "syntax": "typescript", "decorators": true },\n' +
        '             "transform": { "legacyDecorator": true, "decoratorMetadata": true } }\n' +
        `and keep "experimentalDecorators" and "emitDecoratorMetadata" in "compilerOptions" of ${file} for tsc; then compile again.`
      : `Add to "compilerOptions" in ${file}:\n` +
        '    "experimentalDecorators": true,\n' +
        '    "emitDecoratorMetadata": true\n' +
        'and compile again with tsc (6 or 7), ts-node, or swc with "legacyDecorator" and "decoratorMetadata" ' +
        "(@swc/jest for tests): esbuild-based runners (tsx, vitest's default) drop the metadata.";
  const error = new ConfigurationError(
    `${what}${by} with standard (TC39) decorators, but @mcpfusion/core (and class-validator) need TypeScript's legacy ones. ${fix}`
  );
  // The stack would point into the framework, where nothing is to be fixed: the message says it all.
  error.stack = `${error.name}: ${error.message}`;
  return error;
}

/** The message for TypeScript sources Bun runs with standard decorators: the options go where Bun reads them. */
function bunDecoratorsError(file: string): ConfigurationError {
  const error = new ConfigurationError(
    `Bun compiles the decorators of your TypeScript sources as standard (TC39) ones, because ${file} does not set ` +
      '"experimentalDecorators"; @mcpfusion/core (and class-validator) need TypeScript\'s legacy ones and their metadata. ' +
      `Add to "compilerOptions" in ${file}:\n` +
      '    "experimentalDecorators": true,\n' +
      '    "emitDecoratorMetadata": true\n' +
      'Bun reads both when it runs the sources (no build step).'
  );
  error.stack = `${error.name}: ${error.message}`;
  return error;
}

/**
 * Throws {@link standardDecoratorsError} when a compiled module loading the framework was built
 * without `experimentalDecorators`. `loader` is the framework's entry module (its `parent` chain is
 * who imports it); the process's entry file is read too (an ES module importer has no `parent`).
 */
export function assertLegacyDecorators(loader: NodeJS.Module | undefined): void {
  const bunEntry = bunTypeScriptEntry();
  if (bunEntry) {
    const tsconfig = tsconfigWithoutLegacyDecorators(bunEntry);
    if (tsconfig) throw bunDecoratorsError(tsconfig);
  }
  const files = importers(loader);
  // The module that imports the framework may hold no decorator (an app.ts that imports it before
  // ./tools): the compiled files beside the importers are the same build, and are read too, until
  // one file tells: a build is compiled one way, so the first decorated file found (the importers
  // first, nearest first) decides, and a start does not read hundreds of files to learn nothing
  // more (that cost 27 ms of a start in a folder of 90 compiled files).
  for (const file of files) {
    const found = decoratorsIn(file);
    if (found === 'legacy') return;
    if (found) throw standardDecoratorsError(file, undefined, found);
  }
  for (const file of besides(files)) {
    const found = decoratorsIn(file);
    if (found === 'legacy') return;
    if (found) throw standardDecoratorsError(file, undefined, found);
  }
}

/** Compiled files read at most beside the importers (their folders and the folders below, to a small depth). */
const BESIDE_LIMIT = 300;

/** The `.js` files in the importers' folders and below (three levels), node_modules left out, at most {@link BESIDE_LIMIT}. */
function besides(importers: readonly string[]): string[] {
  const seen = new Set(importers);
  const found: string[] = [];
  const visit = (dir: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = fs().readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (found.length >= BESIDE_LIMIT) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < 3 && entry.name !== 'node_modules' && !entry.name.startsWith('.')) visit(path, depth + 1);
      } else if (/\.[cm]?js$/.test(entry.name) && !seen.has(path)) {
        seen.add(path);
        found.push(path);
      }
    }
  };
  for (const dir of new Set(importers.map((file) => dirname(file)))) visit(dir, 0);
  return found;
}

/** The compiled application files that are loading the framework now, nearest first. */
function importers(loader: NodeJS.Module | undefined): string[] {
  const files: string[] = [];
  let current = parentOf(loader);
  for (let depth = 0; current && depth < 32; depth++, current = parentOf(current)) files.push(current.filename);
  if (process.argv[1]) files.push(process.argv[1]);
  return [...new Set(files)].filter((file) => /^\.[cm]?js$/.test(extname(file)) && !/[\\/]node_modules[\\/]/.test(file));
}

/** `module.parent`, read without its deprecation (there is no other way to know a CommonJS importer). */
function parentOf(module: NodeJS.Module | undefined): NodeJS.Module | undefined {
  const parent = (module as { parent?: NodeJS.Module | null } | undefined)?.parent;
  return parent ?? undefined;
}

/**
 * The buffer files are read into, made once: every start reads up to {@link BESIDE_LIMIT} files, and a
 * zero-filled 256 KiB buffer for each cost ~40 ms of every start.
 */
let headBuffer: Buffer | undefined;
/** The helpers' names as bytes, searched for in the bytes read (no decoding of the whole head to a string). */
const HELPER_MARKERS = [Buffer.from('__esDecorate'), Buffer.from('_apply_decs_')];
/**
 * The legacy decorators' metadata helpers (tsc's `__metadata`, also `tslib.__metadata`; swc's
 * `_ts_metadata`): a file carrying one was compiled with both options the framework needs, so the
 * build it belongs to is settled.
 */
const LEGACY_MARKERS = [Buffer.from('__metadata('), Buffer.from('_ts_metadata(')];

/**
 * How `file` was compiled, when it says: the compiler whose standard-decorator helper it carries,
 * `'legacy'` when it carries the legacy decorators' metadata helper, or nothing (no decorator, or
 * not readable).
 */
function decoratorsIn(file: string): Compiler | 'legacy' | undefined {
  const { closeSync, openSync, readSync } = fs();
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = (headBuffer ??= Buffer.allocUnsafe(READ_LIMIT));
    const read = readSync(fd, head, 0, READ_LIMIT, 0);
    const bytes = head.subarray(0, read);
    // Most files carry neither name: only one that does is decoded, and its helper told by the exact pattern.
    const at = HELPER_MARKERS.map((marker) => bytes.indexOf(marker)).filter((i) => i >= 0);
    const helper = at.length ? STANDARD_DECORATORS.exec(bytes.toString('utf8', Math.max(0, Math.min(...at) - 1)))?.[1] : undefined;
    if (helper) return helper.startsWith('_apply_decs_') ? 'swc' : 'tsc';
    return LEGACY_MARKERS.some((marker) => bytes.includes(marker)) ? 'legacy' : undefined;
  } catch {
    // Not readable (a virtual module, a bundle's chunk): nothing to say about it.
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The nearest tsconfig.json at or above `dir` (a build's output folder sits below its project's). */
function nearestTsconfig(dir: string): string | undefined {
  const { existsSync } = fs();
  for (let current = dir; ; current = dirname(current)) {
    const candidate = join(current, 'tsconfig.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(current) === current) return undefined;
  }
}

/**
 * Whether a decorator of ours was called the standard way (`(value, context)`, the context an
 * object with a `kind`): a program compiled without `experimentalDecorators` whose classes reach
 * ours before class-validator's.
 */
export function isStandardDecoratorCall(second: unknown): boolean {
  return typeof second === 'object' && second !== null && typeof (second as { kind?: unknown }).kind === 'string';
}
