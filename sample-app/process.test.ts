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
