import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CLI_BIN } from './cli-bin';

const ROOT = resolve(__dirname, '..', '..');

/** The tiny project `mcpfusion dev` serves in the hot-reload tests, as `mcpfusion init` lays one out. */
export const DEV_PROJECT_FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'dev-fixture', version: '1.0.0', private: true, type: 'commonjs' }, null, 2),
  'tsconfig.json': JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2022'],
        module: 'commonjs',
        moduleResolution: 'bundler',
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        strict: true,
        skipLibCheck: true,
        types: ['node'],
        rootDir: 'src',
        outDir: 'dist'
      },
      include: ['src']
    },
    null,
    2
  ),
  'src/app.ts': `import { FusionApp, type LockRelease, type MutationLock } from '@mcpfusion/core';
import { FifoMutex } from '@mcpfusion/core/advanced';
import { FixtureTools } from './tools';
import './forgotten';

/** The app-wide mutation lock, telling the test's hold server when a mutation has to wait for it. */
class ObservedLock implements MutationLock {
  private readonly inner = new FifoMutex();
  get locked(): boolean {
    return this.inner.locked;
  }
  acquire(signal: AbortSignal): Promise<LockRelease> {
    if (this.inner.locked) void fetch(process.env.HOLD_URL + '/lock-wait');
    return this.inner.acquire(signal);
  }
}

export function createApp(): FusionApp {
  return FusionApp.create({ name: 'dev-fixture', version: '1.0.0', tools: [FixtureTools], mutationLock: new ObservedLock() });
}
`,
  'src/forgotten.ts': `import { Action, ToolProvider } from '@mcpfusion/core';

/** Decorated and loaded, but given to no app: dev names it at startup. */
@ToolProvider()
export class ForgottenTools {
  @Action('forgotten', { description: 'Never served' })
  forgotten(): string {
    return 'never';
  }
}
`,
  'src/tools.ts': toolsSource('v1', '')
};

/**
 * The fixture's tools at a given version: \`version\` says which code answers; \`hold\` is a mutation
 * that waits for the test's hold server (HOLD_URL) to answer, so it is in flight across a reload;
 * \`extra\` is more members, added by an edit.
 */
export function toolsSource(version: string, extra: string): string {
  return `import { Action, Mutation, ToolProvider } from '@mcpfusion/core';

@ToolProvider()
export class FixtureTools {
  @Action('version', { description: 'Which code answers' })
  version(): string {
    return '${version}';
  }

  @Mutation('hold', { description: 'Holds the mutation lock until the test lets it go' })
  async hold(): Promise<string> {
    await (await fetch(process.env.HOLD_URL + '/hold')).text();
    return 'held by ${version}';
  }
${extra}}
`;
}

/** A temporary copy of the project, its node_modules linked to this repository's (and @mcpfusion/core to the repository). */
export function makeDevProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcpfusion-dev-'));
  for (const [file, text] of Object.entries(DEV_PROJECT_FILES)) writeFile(dir, file, text);
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '@mcpfusion'), { recursive: true });
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (name === '@mcpfusion') continue;
    symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
  }
  symlinkSync(ROOT, join(modules, '@mcpfusion', 'core'));
  return dir;
}

export function writeFile(dir: string, file: string, text: string): void {
  mkdirSync(join(dir, file, '..'), { recursive: true });
  writeFileSync(join(dir, file), text);
}

export function removeDevProject(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** `mcpfusion dev` (this repository's @mcpfusion/cli) running in a project, its stderr read as lines. */
export class DevProcess {
  readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: string[] = [];
  private readonly waiters = new Set<{ test: (line: string) => boolean; resolve: (line: string) => void; reject: (e: Error) => void }>();
  readonly exited: Promise<number | null>;

  constructor(dir: string, env: Record<string, string>) {
    this.child = spawn(process.execPath, [CLI_BIN, 'dev', '--port', '0'], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['pipe', 'pipe', 'pipe']
    });
    let partial = '';
    this.child.stderr.on('data', (chunk: Buffer) => {
      const parts = (partial + chunk.toString()).split('\n');
      partial = parts.pop()!;
      for (const line of parts) this.add(line);
    });
    this.child.stdout.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line) this.add(line);
    });
    this.exited = new Promise((resolve) =>
      this.child.on('exit', (code) => {
        for (const waiter of this.waiters) waiter.reject(new Error(`mcpfusion dev exited (${code}):\n${this.lines.join('\n')}`));
        this.waiters.clear();
        resolve(code);
      })
    );
  }

  /** Where the output is now: a later `next` reads only what comes after it. */
  mark(): number {
    return this.lines.length;
  }

  /** All the lines so far. */
  output(): string {
    return this.lines.join('\n');
  }

  /** The first line after `from` that matches. */
  next(pattern: RegExp, from: number): Promise<string> {
    const seen = this.lines.slice(from).find((line) => pattern.test(line));
    if (seen !== undefined) return Promise.resolve(seen);
    if (this.child.exitCode !== null) return Promise.reject(new Error(`mcpfusion dev exited:\n${this.output()}`));
    return new Promise((resolve, reject) => {
      const waiter = { test: (line: string) => pattern.test(line), resolve, reject };
      this.waiters.add(waiter);
    });
  }

  /** SIGTERM, as Ctrl-C or a process manager ends it; resolves with the exit code. */
  stop(): Promise<number | null> {
    if (this.child.exitCode === null) this.child.kill('SIGTERM');
    return this.exited;
  }

  private add(line: string): void {
    this.lines.push(line);
    for (const waiter of this.waiters)
      if (waiter.test(line)) {
        this.waiters.delete(waiter);
        waiter.resolve(line);
      }
  }
}
