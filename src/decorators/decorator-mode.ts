import { closeSync, existsSync, openSync, readSync, readdirSync, type Dirent } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { ConfigurationError } from '../errors';

/**
 * The framework needs TypeScript's legacy decorators (`experimentalDecorators`) and their type
 * metadata (`emitDecoratorMetadata`). Compiled without the first, a program's decorators are
 * TC39 standard decorators: class-validator's run first (they decorate the input classes) and
 * crash inside class-validator, long before a decorator of ours could say anything. So the check
 * is made when the framework is loaded: the compiled modules that are loading it (the module
 * that imports it and the ones that import that, and the entry file) and the compiled files
 * beside them (the same build) are read, and one that carries the standard decorators' helper
 * (`__esDecorate`) stops the program with a message naming both flags and the tsconfig file to
 * put them in.
 */

/** The helper TypeScript emits for standard decorators (also as `tslib.__esDecorate` with `importHelpers`). */
const STANDARD_DECORATORS = /\b__esDecorate\s*\(/;
/** Compiled files are read this far: the helper is emitted at the top of a module (with `importHelpers`, at its first class). */
const READ_LIMIT = 1 << 18;

/** The error that names the two flags, and the tsconfig file when one is found above `compiled`. */
export function standardDecoratorsError(compiled: string | undefined, where?: string): ConfigurationError {
  const tsconfig = compiled ? nearestTsconfig(dirname(compiled)) : undefined;
  const file = tsconfig ?? 'your tsconfig.json';
  const what = compiled ? `${compiled} was compiled` : `${where ?? 'A decorated class'} was compiled`;
  const error = new ConfigurationError(
    `${what} with TypeScript's standard decorators, but @mcpfusion/core (and class-validator) need the legacy ones. ` +
      `Add to "compilerOptions" in ${file}:\n` +
      '    "experimentalDecorators": true,\n' +
      '    "emitDecoratorMetadata": true\n' +
      'and compile again (with tsc, ts-jest or ts-node: esbuild-based runners drop the metadata).'
  );
  // The stack would point into the framework, where nothing is to be fixed: the message says it all.
  error.stack = `${error.name}: ${error.message}`;
  return error;
}

/**
 * Throws {@link standardDecoratorsError} when a compiled module loading the framework was built
 * without `experimentalDecorators`. `loader` is the framework's entry module (its `parent` chain is
 * who imports it); the process's entry file is read too (an ES module importer has no `parent`).
 */
export function assertLegacyDecorators(loader: NodeJS.Module | undefined): void {
  const files = importers(loader);
  // The module that imports the framework may hold no decorator (an app.ts that imports it before
  // ./tools): the compiled files beside the importers are the same build, and are read too.
  for (const file of [...files, ...besides(files)]) {
    if (usesStandardDecorators(file)) throw standardDecoratorsError(file);
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
      entries = readdirSync(dir, { withFileTypes: true });
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

function usesStandardDecorators(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(READ_LIMIT);
    const read = readSync(fd, head, 0, READ_LIMIT, 0);
    return STANDARD_DECORATORS.test(head.toString('utf8', 0, read));
  } catch {
    // Not readable (a virtual module, a bundle's chunk): nothing to say about it.
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The nearest tsconfig.json at or above `dir` (a build's output folder sits below its project's). */
function nearestTsconfig(dir: string): string | undefined {
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
