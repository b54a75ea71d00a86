import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { tempDb } from './test-helpers';

/**
 * `npm start` as a user runs it: npm's own PID is what a terminal, a process manager or a
 * test harness signals. SIGTERM to it must stop the server, leaving no node process behind.
 */
test('SIGTERM to the npm start process stops the server and leaves no orphan node process', async () => {
  const db = tempDb();
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: `${__dirname}/..`,
    env: { ...process.env, PORT: '0', BILLING_DB: db.path, FUSION_STATE_KEY: 'process-test-state-key-of-32-bytes-or-more' },
    stdio: ['ignore', 'ignore', 'pipe']
  });
  let serverPid: number | undefined;
  try {
    serverPid = await new Promise<number>((resolve, reject) => {
      let seen = '';
      npm.stderr.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const match = /billing-desk listening on \S+ \(pid (\d+)\)/.exec(seen);
        if (match) resolve(Number(match[1]));
      });
      npm.once('exit', (code) => reject(new Error(`npm start exited (${String(code)}) before listening:\n${seen}`)));
    });
    // A deadline turns "npm never exits" (the signal stuck in a shell between npm and node) into a failure.
    const exited = once(npm, 'exit', { signal: AbortSignal.timeout(20_000) });
    npm.kill('SIGTERM');
    await exited;
    expect(() => process.kill(serverPid!, 0)).toThrow(/ESRCH/);
  } finally {
    if (npm.exitCode === null && npm.signalCode === null) npm.kill('SIGKILL');
    if (serverPid !== undefined) {
      try {
        process.kill(serverPid, 'SIGKILL');
      } catch {
        // already gone, as it should be
      }
    }
    npm.stderr.destroy();
    db.remove();
  }
}, 60_000);

/** A DATABASE_URL that is not a PostgreSQL URL, or leads nowhere: the desk does not start, says why, and exits 1. */
test.each([
  ['not a URL', 'billing.db', /DATABASE_URL must be a PostgreSQL URL: postgres:\/\/user\[:password\]@host\[:port\]\/database/],
  ['no server there', 'postgres://billing@127.0.0.1:1/billing', /billing-desk failed to start: connect ECONNREFUSED 127\.0\.0\.1:1/]
])(
  'DATABASE_URL %s: exits 1 with the reason on stderr',
  async (_case, url, reason) => {
    const db = tempDb();
    const child = spawn(process.execPath, [`${__dirname}/../build/sample-app/main.js`], {
      env: { ...process.env, PORT: '0', BILLING_DB: db.path, DATABASE_URL: url },
      stdio: ['ignore', 'ignore', 'pipe']
    });
    try {
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(1);
      expect(stderr).toMatch(reason);
      expect(stderr).not.toContain('listening');
    } finally {
      child.stderr.destroy();
      db.remove();
    }
  },
  30_000
);
