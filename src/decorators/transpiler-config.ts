import { dirname, isAbsolute, join } from 'node:path';

/**
 * Bun runs TypeScript sources as they are, with its own transpiler, and takes the decorator mode
 * from the nearest `tsconfig.json`: without `"experimentalDecorators": true` it compiles standard
 * (TC39) decorators, and the first class-validator decorator of the program crashes with
 * `undefined is not an object (evaluating 'object.constructor')`, far from the cause. There is no
 * compiled file to read for a helper's name (what {@link assertLegacyDecorators} does for tsc and
 * swc output), so under Bun the entry file's tsconfig is read instead.
 *
 * The check errs on the side of silence: it names a file only when that file (and what it
 * `extends`, followed where it can be) plainly leaves `experimentalDecorators` unset or false.
 * A config it cannot read, parse or follow says nothing. (Deno refuses a parameter decorator at
 * parse time, before any module runs, with a syntax error at the decorator: nothing can be said
 * from here; deno.json's `compilerOptions` is where the docs point.)
 */

/** What a tsconfig says of the decorator mode: set, unset (the file says nothing and extends nothing), or unknown. */
type DecoratorSetting = 'legacy' | 'standard' | 'unknown';

/** The entry file of a Bun process when it is a TypeScript source Bun transpiles, else undefined. */
export function bunTypeScriptEntry(): string | undefined {
  if (typeof process === 'undefined' || !process.versions?.bun) return undefined;
  const main = (globalThis as { Bun?: { main?: unknown } }).Bun?.main;
  const entry = typeof main === 'string' ? main : process.argv[1];
  return entry && isAbsolute(entry) && /\.[cm]?tsx?$/.test(entry) ? entry : undefined;
}

/**
 * The tsconfig that makes Bun compile `entry`'s decorators as standard ones, or undefined when it
 * sets `experimentalDecorators` or when that cannot be known.
 */
export function tsconfigWithoutLegacyDecorators(entry: string): string | undefined {
  // node:fs on use: only a Bun process running TypeScript sources gets here.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
  const fs = require('node:fs') as typeof import('node:fs');
  const config = nearestConfig(fs, dirname(entry));
  if (!config) return undefined;
  return decoratorSetting(fs, config, 0) === 'standard' ? config : undefined;
}

/** The nearest tsconfig.json (or jsconfig.json) at or above `dir`. */
function nearestConfig(fs: typeof import('node:fs'), dir: string): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    for (const name of ['tsconfig.json', 'jsconfig.json']) {
      const candidate = join(current, name);
      if (fs.existsSync(candidate)) return candidate;
    }
    if (dirname(current) === current) return undefined;
  }
}

/** `file`'s own `experimentalDecorators`, else what the file it extends (a relative path) says; at most four levels. */
function decoratorSetting(fs: typeof import('node:fs'), file: string, depth: number): DecoratorSetting {
  if (depth > 4) return 'unknown';
  let parsed: { extends?: unknown; compilerOptions?: { experimentalDecorators?: unknown } };
  try {
    parsed = JSON.parse(stripJsonComments(fs.readFileSync(file, 'utf8'))) as typeof parsed;
  } catch {
    return 'unknown';
  }
  const own = parsed?.compilerOptions?.experimentalDecorators;
  if (own === true) return 'legacy';
  if (own === false) return 'standard';
  if (parsed?.extends === undefined) return 'standard';
  // A base in a package (`@tsconfig/bun`) or a list of bases: not followed, nothing said.
  if (typeof parsed.extends !== 'string' || !parsed.extends.startsWith('.')) return 'unknown';
  const base = join(dirname(file), parsed.extends);
  const path = fs.existsSync(base) ? base : `${base}.json`;
  return fs.existsSync(path) ? decoratorSetting(fs, path, depth + 1) : 'unknown';
}

/** JSON with comments and trailing commas (what tsconfig files are) as plain JSON; strings kept as they are. */
export function stripJsonComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      out += text.slice(start, i + 1);
    } else if (char === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
      out += ' ';
    } else if (char === '}' || char === ']') {
      // A trailing comma before the close (outside any string: strings are copied whole above).
      out = out.replace(/,\s*$/, '') + char;
    } else out += char;
  }
  return out;
}
