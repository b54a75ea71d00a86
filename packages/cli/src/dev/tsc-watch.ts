import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { parseErrorLine, type CompileError } from './compiler-report';
import type { DevProject } from './project-config';

/** What the compiler tells the runner. */
export interface CompilerEvents {
  /** A compilation began (the first, or after a source changed). */
  compiling(): void;
  /** A compilation ended: no errors (files written), or the errors (nothing written: `--noEmitOnError`). */
  compiled(errors: readonly CompileError[]): void;
}

/**
 * The project's own `tsc` in watch mode, as a child process: tsc (not esbuild or tsx, which drop
 * the decorator metadata the framework injects by), whichever major version the project has (the
 * native 7 has no JavaScript API, so its output is read, `--pretty false`, in English).
 * `--noEmitOnError`: an edit that does not compile writes nothing, so the compiled files stay
 * those of the code being served.
 */
export class TscWatch {
  private readonly child: ChildProcess;
  private errors: CompileError[] = [];
  private last: CompileError | undefined;

  constructor(project: DevProject, events: CompilerEvents, onExit: (code: number | null) => void) {
    this.child = spawn(
      process.execPath,
      [
        project.tscBin,
        '-p',
        project.tsconfig,
        '--watch',
        '--preserveWatchOutput',
        '--pretty',
        'false',
        '--noEmitOnError',
        '--locale',
        'en'
      ],
      { cwd: project.dir, stdio: ['ignore', 'pipe', 'pipe'] }
    );
    const lines = createInterface({ input: this.child.stdout! });
    lines.on('line', (line) => this.read(line, events));
    this.child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    this.child.on('exit', (code) => onExit(code));
  }

  /** Stops tsc (the runner's shutdown). */
  stop(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
  }

  private read(line: string, events: CompilerEvents): void {
    if (/Starting compilation in watch mode|File change detected/.test(line)) {
      this.errors = [];
      this.last = undefined;
      events.compiling();
      return;
    }
    if (/Found \d+ errors?\b.*Watching for file changes/.test(line)) {
      events.compiled(this.errors);
      return;
    }
    const error = parseErrorLine(line);
    if (error) {
      this.errors.push(error);
      this.last = error;
    } else if (this.last && /^\s+/.test(line)) {
      // A message chain's further lines, indented under the error they belong to.
      const index = this.errors.length - 1;
      this.last = { ...this.last, message: `${this.last.message}\n   ${line.trim()}` };
      this.errors[index] = this.last;
    }
  }
}
