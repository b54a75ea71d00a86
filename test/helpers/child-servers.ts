import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/**
 * Servers run as child processes by the multi-process tests: started with `node <script>`, ready
 * once their stderr matches `listening` (its first group is the URL), stopped with SIGTERM.
 */
export class ChildServers {
  private readonly children: ChildProcess[] = [];

  /** The children started so far, oldest first. */
  get all(): readonly ChildProcess[] {
    return this.children;
  }

  start(args: readonly string[], env: NodeJS.ProcessEnv, listening: RegExp): Promise<URL> {
    const child = spawn(process.execPath, [...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    this.children.push(child);
    return new Promise<URL>((resolve, reject) => {
      let seen = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const match = listening.exec(seen);
        if (match) resolve(new URL(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${String(code)}) before listening:\n${seen}`)));
    });
  }

  /** Stops every child still running (SIGTERM, then waits for its exit). */
  async stopAll(): Promise<void> {
    await Promise.all(
      this.children.splice(0).map(async (child) => {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = once(child, 'exit');
          child.kill('SIGTERM');
          await exited;
        }
        child.stderr?.destroy();
      })
    );
  }
}
