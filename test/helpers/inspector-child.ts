import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { CLI_BIN } from './cli-bin';

/** The `mcpfusion` binary as @mcpfusion/cli's `bin` names it (built by `npm run compile`). */
export const MCPFUSION_BIN = CLI_BIN;

/** A `mcpfusion inspector` running as a child process. */
export interface InspectorChild {
  /** The page's address, as the command printed it on stdout. */
  readonly url: URL;
  readonly child: ChildProcess;
  /** What it wrote to stderr so far. */
  stderr(): string;
  /** Resolves once stderr matches `pattern` (rejects if the process exits first). */
  stderrMatching(pattern: RegExp): Promise<string>;
  /** Stops it with SIGINT (Ctrl-C) and waits for its exit; the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Runs `mcpfusion inspector <args>` with `env` added to this process's environment, and
 * resolves once it has printed its URL (its first stdout line).
 */
export function startInspectorChild(args: readonly string[], env: NodeJS.ProcessEnv): Promise<InspectorChild> {
  const child = spawn(process.execPath, [MCPFUSION_BIN, 'inspector', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<InspectorChild>((resolve, reject) => {
    let stdout = '';
    const onExit = (code: number | null): void =>
      reject(new Error(`mcpfusion inspector exited (${String(code)}) before printing its URL:\n${stderr}`));
    child.once('exit', onExit);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = /^(http:\/\/\S+)\n/.exec(stdout);
      if (!line) return;
      child.off('exit', onExit);
      resolve({
        url: new URL(line[1]),
        child,
        stderr: () => stderr,
        stderrMatching: (pattern) =>
          new Promise<string>((matched, failed) => {
            if (pattern.test(stderr)) return matched(stderr);
            const check = (): void => {
              if (!pattern.test(stderr)) return;
              child.stderr!.off('data', check);
              child.off('exit', gone);
              matched(stderr);
            };
            const gone = (): void => failed(new Error(`mcpfusion inspector exited; stderr never matched ${String(pattern)}:\n${stderr}`));
            // Registered after the collecting listener, so `stderr` already holds the chunk.
            child.stderr!.on('data', check);
            child.once('exit', gone);
          }),
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
          const exited = once(child, 'exit') as Promise<[number | null]>;
          child.kill('SIGINT');
          const [code] = await exited;
          return code;
        }
      });
    });
  });
}
