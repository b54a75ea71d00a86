import { spawn, type ChildProcess } from 'node:child_process';
import { watch, type FSWatcher } from 'node:fs';
import { dirname } from 'node:path';
import { parseErrorLine, type CompileError } from './compiler-report';
import type { DevProject } from './project-config';
import type { CompilerEvents } from './tsc-watch';

/** A burst of file events (an editor's save is often several) is compiled once, this long after its last event. */
const SETTLE_MS = 50;

/**
 * The project's own `tsc` run once per change, for TypeScript 7: its native compiler is fast
 * enough to compile the project from scratch on each save, and its `--watch` still misses
 * changes (microsoft/typescript-go#2640). The folders of the project's sources (and of its
 * tsconfig files) are watched with Node's `fs.watch`; a change to a `.ts` or `.json` file
 * compiles again (one compile at a time: a change during a compile compiles once more after
 * it). `--noEmitOnError`, as in watch mode: an edit that does not compile writes nothing.
 */
export class TscRuns {
  private readonly watchers: FSWatcher[] = [];
  private child: ChildProcess | undefined;
  private settle: NodeJS.Timeout | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly project: DevProject,
    private readonly events: CompilerEvents,
    private readonly onExit: (code: number | null) => void
  ) {
    for (const dir of new Set([...project.sourceDirs, ...project.tsconfigChain.map((file) => dirname(file))])) {
      try {
        this.watchers.push(watch(dir, (_event, name) => this.changed(name)));
      } catch {
        // A folder that is gone: nothing in it to compile.
      }
    }
    this.compile();
  }

  /** Stops watching and ends a compile in progress (the runner's shutdown). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.settle);
    for (const watcher of this.watchers) watcher.close();
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    this.onExit(0);
  }

  private changed(name: string | Buffer | null): void {
    if (this.stopped || (name !== null && !/\.(c|m)?tsx?$|\.json$/.test(String(name)))) return;
    if (this.child) {
      this.again = true;
      return;
    }
    clearTimeout(this.settle);
    this.settle = setTimeout(() => this.compile(), SETTLE_MS);
  }

  private compile(): void {
    this.again = false;
    this.events.compiling();
    const errors: CompileError[] = [];
    let output = '';
    const child = spawn(process.execPath, [this.project.tscBin, '-p', this.project.tsconfig, '--noEmitOnError', '--pretty', 'false'], {
      cwd: this.project.dir,
      stdio: ['ignore', 'pipe', 'pipe']
    });
    this.child = child;
    const read = (chunk: Buffer): void => void (output += chunk.toString());
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => {
      this.child = undefined;
      if (this.stopped) return;
      for (const line of output.split('\n')) {
        const error = parseErrorLine(line.trimEnd());
        if (error) errors.push(error);
        else if (errors.length > 0 && /^\s+\S/.test(line)) {
          const last = errors[errors.length - 1];
          errors[errors.length - 1] = { ...last, message: `${last.message}\n   ${line.trim()}` };
        }
      }
      // A failure tsc printed no error line for (it crashed): its output is the error.
      if (code !== 0 && errors.length === 0) errors.push({ code: `exit ${code}`, message: output.trim() || 'tsc failed' });
      this.events.compiled(errors);
      if (this.again) this.changed(null);
    });
  }
}
