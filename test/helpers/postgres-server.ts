import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './redis-server';

/** What installs the server the PostgreSQL tests need (Debian's package), named by the tests that skip without it. */
export const POSTGRES_INSTALL = 'apt-get install -y postgresql';

/** A real PostgreSQL server (Debian's `postgresql`) in a temporary directory, on a free port of 127.0.0.1, trust auth. */
export interface PostgresServer {
  /** `postgres://test@127.0.0.1:<port>/postgres` */
  readonly url: string;
  stop(): Promise<void>;
}

/** The directory of the server's programs (`initdb`, `postgres`), or undefined when PostgreSQL is not installed. */
export function postgresBin(): string | undefined {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) {
    const real = spawnSync('readlink', ['-f', onPath], { encoding: 'utf8' }).stdout.trim();
    return join(real || onPath, '..');
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(root, v, 'bin')).find((bin) => existsSync(join(bin, 'initdb')));
}

/**
 * Starts a server: `initdb` in a temporary directory, then `postgres` on 127.0.0.1 only (its
 * socket in that directory). PostgreSQL refuses to run as root: as root, both run as the
 * package's `postgres` user (or `nobody`), which owns the directory.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBin();
  if (!bin) throw new Error(`PostgreSQL is not installed: ${POSTGRES_INSTALL}`);
  const dir = mkdtempSync(join(tmpdir(), 'mcpfusion-pg-'));
  const data = join(dir, 'data');
  const owner = process.getuid?.() === 0 ? unprivileged() : undefined;
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const as = owner ? { uid: owner.uid, gid: owner.gid } : {};
  const init = spawnSync(join(bin, 'initdb'), ['-D', data, '-U', 'test', '--auth=trust', '-E', 'UTF8', '--no-sync'], {
    encoding: 'utf8',
    ...as
  });
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed (${String(init.status)}):\n${init.stderr}`);
  }
  const port = await freePort();
  const child: ChildProcess = spawn(
    join(bin, 'postgres'),
    ['-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', dir, '-c', 'fsync=off', '-c', 'synchronous_commit=off'],
    { stdio: ['ignore', 'ignore', 'pipe'], ...as }
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('ready to accept connections')) resolve();
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`postgres exited (${String(code)}) before it was ready:\n${out}`)));
  });
  return {
    url: `postgres://test@127.0.0.1:${port}/postgres`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        // Fast shutdown: sessions are ended, nothing is waited for.
        child.kill('SIGINT');
        await exited;
      }
      child.stderr?.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

function unprivileged(): { uid: number; gid: number } {
  for (const user of ['postgres', 'nobody']) {
    const uid = spawnSync('id', ['-u', user], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', user], { encoding: 'utf8' });
    if (uid.status === 0 && gid.status === 0) return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  }
  throw new Error('PostgreSQL does not run as root, and neither the postgres nor the nobody user exists');
}
