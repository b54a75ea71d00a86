import { connectRedis, RedisMutationLock } from '../src/redis';

/**
 * One process of the contended-lock bench (`node build/bench/lock-worker.js <redis-url> <key>
 * <workers> <iterations>`): `workers` loops, each acquiring and releasing the key `hot` of the
 * lock `key` `iterations` times with an empty critical section, started on the parent's `go`
 * (IPC) so that every process contends at once. Answers `{ grants, commands, ms }`.
 */
async function main(): Promise<void> {
  const [url, key, workers, iterations] = process.argv.slice(2);
  const connection = await connectRedis(url);
  // Polls far apart: a hand-off must reach its waiter by its message, not by a poll.
  const lock = new RedisMutationLock(connection, { key, leaseMs: 30_000, pollMs: 10_000 });
  process.once('message', () => {
    void (async () => {
      const start = performance.now();
      let grants = 0;
      await Promise.all(
        Array.from({ length: Number(workers) }, async () => {
          const signal = new AbortController().signal;
          for (let i = 0; i < Number(iterations); i++) {
            const release = await lock.acquireKeys(['hot'], signal);
            grants++;
            release();
          }
        })
      );
      const ms = performance.now() - start;
      process.send?.({ grants, commands: lock.commands, ms });
      await connection.close();
      process.exit(0);
    })();
  });
  process.send?.('ready');
}

void main();
