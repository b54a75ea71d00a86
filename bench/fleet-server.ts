import 'reflect-metadata';
import { IsString } from 'class-validator';
import { FusionApp, Input, Mutation, ToolProvider } from '../src';
import { FifoMutex } from '../src/advanced';
import { connectRedis, RedisMutationLock } from '../src/redis';

class Work {
  @IsString() key!: string;
}

/** A small write: the lock's share of a mutation shows when the work itself is cheap. */
@ToolProvider()
class FleetTools {
  private readonly written = new Map<string, number>();

  @Mutation('work.app', { description: 'A write, app-wide' })
  app(@Input() input: Work) {
    this.written.set(input.key, (this.written.get(input.key) ?? 0) + 1);
    return 'ok';
  }

  @Mutation('work.keyed', { description: 'A write, serialized on its key', serializeOn: (input: Work) => input.key })
  keyed(@Input() input: Work) {
    this.written.set(input.key, (this.written.get(input.key) ?? 0) + 1);
    return 'ok';
  }
}

/**
 * One instance of the fleet bench (`node build/bench/fleet-server.js [redis-url]`): the two
 * mutations above over HTTP on 127.0.0.1, on the Redis lock (or, without a URL, the in-process
 * one). Reports its port on stdout; stops on SIGTERM.
 */
async function main(): Promise<void> {
  const url = process.argv[2];
  const connection = url ? await connectRedis(url) : undefined;
  const app = FusionApp.create({
    name: 'fleet-bench',
    version: '1.0.0',
    tools: [FleetTools],
    mutationLock: connection ? new RedisMutationLock(connection, { key: 'fleet-bench' }) : new FifoMutex(),
    concurrency: { maxActive: 64, maxQueue: 1024 },
    logger: () => undefined
  });
  const listening = await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, path: '/mcp' });
  process.stdout.write(`${listening.url!.port}\n`);
  process.once('SIGTERM', () => {
    void app.close().then(async () => {
      await connection?.close();
      process.exit(0);
    });
  });
}

void main();
