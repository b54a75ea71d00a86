import { setImmediate as turn } from 'node:timers/promises';
import { connectRedis, RedisMutationLock } from '../../src/redis';

/**
 * A second instance of the Redis mutation lock, in its own process, driven over IPC by the
 * model-based test: `node lock-child.js <redis-url> <key>`. Messages in: `{ op, n, keys? }`
 * (key: a lock of another prefix from now on, acquire, abort, release); out: `{ n, event }` (placed, granted, failed) and `{ event: 'ready' }`.
 */
async function main(): Promise<void> {
  const [url, key] = process.argv.slice(2);
  const connection = await connectRedis(url);
  let lock = new RedisMutationLock(connection, { key, leaseMs: 5_000, pollMs: 200 });
  const controllers = new Map<number, AbortController>();
  const releases = new Map<number, () => void>();
  const send = (message: object): void => void process.send?.(message);
  process.on('message', (raw) => {
    const message = raw as { op: string; n: number; keys?: string[]; key?: string };
    if (message.op === 'key') lock = new RedisMutationLock(connection, { key: message.key, leaseMs: 5_000, pollMs: 200 });
    else if (message.op === 'acquire') {
      const controller = new AbortController();
      controllers.set(message.n, controller);
      const before = lock.placements;
      let settled = false;
      const keys = message.keys ?? [];
      (keys.length === 0 ? lock.acquire(controller.signal) : lock.acquireKeys(keys, controller.signal)).then(
        (release) => {
          settled = true;
          releases.set(message.n, release);
          send({ n: message.n, event: 'granted' });
        },
        (error: unknown) => {
          settled = true;
          send({ n: message.n, event: 'failed', error: String(error) });
        }
      );
      void (async () => {
        while (!settled && lock.placements === before) await turn();
        send({ n: message.n, event: 'placed' });
      })();
    } else if (message.op === 'abort') controllers.get(message.n)?.abort();
    else if (message.op === 'release') {
      releases.get(message.n)?.();
      releases.delete(message.n);
    } else if (message.op === 'exit') {
      void connection.close().then(() => process.exit(0));
    }
  });
  send({ event: 'ready' });
}

void main();
