import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/** The repository's root: its dist/ is the package a template's `@mcpfusion/core` resolves to. */
export const ROOT = join(__dirname, '..', '..');

/** The runtimes the deploy targets run on, pinned apart from the root lockfile (scripts/runtimes/package.json). */
export const RUNTIMES = join(ROOT, 'scripts', 'runtimes', 'node_modules');
export const RUNTIMES_INSTALL = 'npm ci --prefix scripts/runtimes';

/** The binary `name` of scripts/runtimes (bun, deno, next), when installed. */
export function runtimeBin(name: string): string | undefined {
  const bin = join(RUNTIMES, '.bin', name);
  return existsSync(bin) ? bin : undefined;
}

/**
 * A scratch copy of a template (examples/starter or examples/templates/<name>) that resolves its
 * packages as a user's install would, without an install: node_modules/@mcpfusion/core is this
 * repository (its built dist/), every other package a link into the root node_modules, then into
 * scripts/runtimes/node_modules (Bun, Deno, Next.js, Hono) for what the root does not have.
 * Remove it with `rmSync(dir, { recursive: true, force: true })`. `under`: the folder to make it in
 * (default the OS's temporary folder); a bundler that compiles nothing outside its workspace root
 * (Turbopack, for `next build`) needs it inside the repository, whose lockfile marks that root.
 */
export function scratchTemplate(template: string, options: { under?: string } = {}): string {
  if (options.under) mkdirSync(options.under, { recursive: true });
  const dir = mkdtempSync(join(options.under ?? tmpdir(), 'mcpfusion-target-'));
  cpSync(template, dir, {
    recursive: true,
    filter: (source) => !/^(node_modules|dist|\.next|\.wrangler)(\/|$)/.test(relative(template, source).split('\\').join('/'))
  });
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '@mcpfusion'), { recursive: true });
  symlinkSync(ROOT, join(modules, '@mcpfusion', 'core'), 'dir');
  for (const source of [join(ROOT, 'node_modules'), RUNTIMES]) {
    if (!existsSync(source)) continue;
    for (const entry of readdirSync(source)) {
      if (entry === '@mcpfusion' || entry === '.package-lock.json') continue;
      if (entry.startsWith('@')) {
        mkdirSync(join(modules, entry), { recursive: true });
        for (const scoped of readdirSync(join(source, entry))) {
          if (!existsSync(join(modules, entry, scoped))) symlinkSync(join(source, entry, scoped), join(modules, entry, scoped));
        }
      } else if (entry === '.bin') {
        mkdirSync(join(modules, '.bin'), { recursive: true });
        for (const bin of readdirSync(join(source, '.bin'))) {
          if (!existsSync(join(modules, '.bin', bin))) symlinkSync(join(source, '.bin', bin), join(modules, '.bin', bin));
        }
      } else if (!existsSync(join(modules, entry))) {
        symlinkSync(join(source, entry), join(modules, entry));
      }
    }
  }
  return dir;
}

/** Removes a scratch copy. */
export function removeScratch(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A server started by `startTarget`: its MCP endpoint, and a stop that waits for the process to exit. */
export interface TargetServer {
  readonly url: URL;
  readonly child: ChildProcess;
  /** All it printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Runs `command args` in `cwd` and resolves once it prints `ready` (a pattern whose first group is
 * the server's base URL, e.g. `listening on (http://127.0.0.1:\d+)`), with `path` appended (the
 * MCP endpoint, '/mcp' by default, '' when the printed URL is the endpoint itself). Rejects with
 * everything it printed if it exits first.
 */
export async function startTarget(options: {
  command: string;
  args: readonly string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  ready: RegExp;
  path?: string;
}): Promise<TargetServer> {
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe']
  });
  let seen = '';
  const url = await new Promise<URL>((resolve, reject) => {
    const read = (chunk: Buffer): void => {
      seen += chunk.toString();
      const match = options.ready.exec(seen);
      if (match) resolve(new URL(`${match[1].replace(/\/$/, '')}${options.path ?? '/mcp'}`));
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      reject(new Error(`${options.command} exited (${String(code ?? signal)}) before it was ready:\n${seen}`))
    );
  });
  return {
    url,
    child,
    output: () => seen,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
  };
}

/** Runs a command to its end in `cwd`; resolves with its output, rejects with it when it fails. */
export async function runToEnd(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let seen = '';
  child.stdout!.on('data', (chunk: Buffer) => (seen += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (seen += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${String(code)}:\n${seen}`);
  return seen;
}
