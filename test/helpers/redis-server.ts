import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** What installs the server the Redis tests need (Debian's package), named by the tests that skip without it. */
export const REDIS_INSTALL = 'sudo apt-get install -y redis-server';

/** Whether a `redis-server` binary runs here. */
export function redisInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0;
}

const installed = redisInstalled();
const SKIPPED = ` (skipped: redis-server is not installed; install it with: ${REDIS_INSTALL})`;

/** `describe` where redis-server is installed; elsewhere skipped, by name, saying how to install it (CI installs it and counts a skip as a failure). */
export const describeWithRedis = (name: string, body: () => void): void =>
  installed ? describe(name, body) : describe.skip(name + SKIPPED, body);

/** `test` where redis-server is installed; elsewhere skipped, by name, saying how to install it. */
export const testWithRedis = (name: string, fn: jest.ProvidesCallback, timeout?: number): void =>
  installed ? test(name, fn, timeout) : test.skip(name + SKIPPED, fn, timeout);

/** A real `redis-server` (the Debian package) on a free port of 127.0.0.1, without persistence. */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
  /** Starts it again on the same port (after `stop`). */
  start(): Promise<void>;
}

/** A free TCP port of 127.0.0.1 (the OS picks one; it is closed again at once). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe']
    });
    child = proc;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      proc.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Ready to accept connections')) resolve();
      });
      proc.once('error', (error) =>
        reject(new Error(`redis-server could not start (is the Debian package redis-server installed?): ${error.message}`))
      );
      proc.once('exit', (code) => reject(new Error(`redis-server exited (${String(code)}) before it was ready:\n${out}`)));
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    async stop() {
      const proc = child;
      if (!proc || proc.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill('SIGKILL');
      await exited;
      proc.stdout?.destroy();
      proc.stderr?.destroy();
    }
  };
}
