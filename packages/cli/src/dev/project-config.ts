import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CliError } from '../cli-error';

/** A project `mcpfusion dev` serves, as its tsconfig says it compiles. */
export interface DevProject {
  /** The project's folder (where its package.json is). */
  readonly dir: string;
  /** The tsconfig `tsc` compiles (`tsconfig.build.json` when there is one, else `tsconfig.json`, or `--tsconfig`). */
  readonly tsconfig: string;
  /** The project's own `tsc` (its `typescript` dev dependency), run by Node. */
  readonly tscBin: string;
  /** Its major version: 7 (the native compiler) is run once per change, earlier ones in watch mode. */
  readonly tscMajor: number;
  /** The folders that hold the project's sources (what is watched when tsc is run once per change). */
  readonly sourceDirs: readonly string[];
  /** Where the compiled files go: what a reload drops from Node's require cache. */
  readonly outDir: string;
  /** The source root the output mirrors. */
  readonly rootDir: string;
  /** The decorator flags the tsconfig lacks (the framework needs both). */
  readonly missingDecoratorFlags: readonly string[];
  /** The tsconfig and the files it extends, in order (where a compiler option may be set). */
  readonly tsconfigChain: readonly string[];
  /** A `require` that resolves from the project (its `reflect-metadata`, its compiled files). */
  readonly require: NodeJS.Require;
}

/** The two compiler options every project of the framework needs. */
export const DECORATOR_FLAGS = ['experimentalDecorators', 'emitDecoratorMetadata'] as const;

/**
 * Reads the project in `dir`: its tsconfig as `tsc --showConfig` resolves it (extends, include),
 * so the output folder and the source root are the compiler's own. A project without
 * `typescript`, or one that emits ES modules, is refused with what to do.
 */
export function readProject(dir: string, tsconfigOption?: string): DevProject {
  const projectDir = resolve(dir);
  const tsconfig = tsconfigOption
    ? resolve(projectDir, tsconfigOption)
    : [join(projectDir, 'tsconfig.build.json'), join(projectDir, 'tsconfig.json')].find((path) => existsSync(path));
  if (!tsconfig || !existsSync(tsconfig))
    throw new CliError(`dev: no tsconfig in ${projectDir} (run it in a project made by \`mcpfusion init\`, or give --tsconfig <file>)`);
  const projectRequire = createRequire(join(projectDir, 'package.json'));
  const { bin: tscBin, major: tscMajor } = findTsc(projectRequire);
  const shown = spawnSync(process.execPath, [tscBin, '-p', tsconfig, '--showConfig'], { cwd: projectDir, encoding: 'utf8' });
  if (shown.status !== 0) throw new CliError(`dev: tsc could not read ${tsconfig}:\n${shown.stdout}${shown.stderr}`);
  const config = JSON.parse(shown.stdout) as { compilerOptions?: Record<string, unknown>; files?: string[] };
  const options = config.compilerOptions ?? {};
  const base = dirname(tsconfig);
  if (options.noEmit === true)
    throw new CliError(`dev: ${tsconfig} has "noEmit": true; give the tsconfig that builds (--tsconfig tsconfig.build.json)`);
  if (typeof options.outDir !== 'string') throw new CliError(`dev: ${tsconfig} has no "outDir": dev loads the compiled files from there`);
  if (packageType(projectDir) === 'module' || isEsmOutput(options))
    throw new CliError(
      'dev: this project emits ES modules; mcpfusion dev reloads CommonJS output ("module": "commonjs", as `mcpfusion init` makes)'
    );
  const files = (config.files ?? []).map((file) => resolve(base, file)).filter((file) => !file.endsWith('.d.ts'));
  return {
    dir: projectDir,
    tsconfig,
    tscBin,
    tscMajor,
    sourceDirs: [...new Set(files.map((file) => dirname(file)))],
    outDir: resolve(base, options.outDir),
    rootDir: typeof options.rootDir === 'string' ? resolve(base, options.rootDir) : commonDir(files, base),
    missingDecoratorFlags: DECORATOR_FLAGS.filter((flag) => options[flag] !== true),
    tsconfigChain: extendsChain(tsconfig),
    require: projectRequire
  };
}

/** The source file of a compiled one (`dist/app.js` → `src/app.ts`), for messages; a file outside `outDir` as it is. */
export function sourceOf(project: DevProject, compiled: string): string {
  const inOut = relative(project.outDir, compiled);
  if (inOut.startsWith('..') || isAbsolute(inOut)) return relative(project.dir, compiled);
  return relative(project.dir, join(project.rootDir, inOut)).replace(/\.([cm]?)js$/, (_, m: string) => `.${m}ts`);
}

/** The compiled file of a source file (`src/app.ts` → `dist/app.js`); a `.js` path is taken as it is. */
export function outputOf(project: DevProject, modulePath: string): string {
  const source = resolve(project.dir, modulePath);
  if (/\.[cm]?js$/.test(source)) return source;
  const inRoot = relative(project.rootDir, source);
  if (inRoot.startsWith('..') || isAbsolute(inRoot))
    throw new CliError(`dev: ${modulePath} is outside the project's sources (${project.rootDir})`);
  return join(project.outDir, inRoot).replace(/\.([cm]?)tsx?$/, (_, m: string) => `.${m}js`);
}

/** The project's `tsc`: its own `typescript` (a dev dependency of every project `mcpfusion init` makes). */
function findTsc(projectRequire: NodeJS.Require): { bin: string; major: number } {
  let manifest: string;
  try {
    manifest = projectRequire.resolve('typescript/package.json');
  } catch {
    throw new CliError('dev: the project has no `typescript` (npm install --save-dev typescript); dev compiles with tsc');
  }
  const { bin, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: Record<string, string>; version?: string };
  return { bin: join(dirname(manifest), bin?.tsc ?? 'bin/tsc'), major: Number.parseInt(version ?? '0', 10) };
}

/** A tsconfig and the local files it extends (a package's base config is not the user's to edit, so the chain stops there). */
function extendsChain(tsconfig: string): string[] {
  const chain = [tsconfig];
  for (let at = tsconfig; chain.length < 10;) {
    let base: unknown;
    try {
      // tsconfig is JSON with comments and trailing commas: enough of it is read to find `extends`.
      const text = readFileSync(at, 'utf8')
        .replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '')
        .replace(/,(\s*[}\]])/g, '$1');
      base = (JSON.parse(text) as { extends?: unknown }).extends;
    } catch {
      break;
    }
    if (typeof base !== 'string' || !base.startsWith('.')) break;
    const next = resolve(dirname(at), base.endsWith('.json') ? base : `${base}.json`);
    if (!existsSync(next) || chain.includes(next)) break;
    chain.push(next);
    at = next;
  }
  return chain;
}

function packageType(dir: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { type?: string }).type;
  } catch {
    return undefined;
  }
}

/** ES module output: a module kind other than CommonJS (node16/nodenext emit CommonJS in a CommonJS package). */
function isEsmOutput(options: Record<string, unknown>): boolean {
  const kind = String(options.module ?? 'commonjs').toLowerCase();
  return kind.startsWith('es') || kind === 'preserve';
}

/** The deepest folder holding every source (what tsc takes as the root when none is set). */
function commonDir(files: readonly string[], fallback: string): string {
  if (files.length === 0) return fallback;
  let common = dirname(files[0]).split(sep);
  for (const file of files.slice(1)) {
    const parts = dirname(file).split(sep);
    let i = 0;
    while (i < common.length && common[i] === parts[i]) i++;
    common = common.slice(0, i);
  }
  return common.join(sep) || sep;
}
