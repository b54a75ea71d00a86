import { LIVE, TERMINAL, type TaskRecord, type TaskStatus } from '../tasks/task-record';
import { patched, type TaskPatchOf, type TaskStore } from '../tasks/task-store';
import type { RedisConnection } from './redis-connection';

/** Writes a record only if it is still what was read (compare and set), and keeps the live set in step. */
const COMPARE_AND_SET = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
if ARGV[3] == '1' then redis.call('SADD', KEYS[2], ARGV[4]) else redis.call('SREM', KEYS[2], ARGV[4]) end
return 1`;

/**
 * Task records in Redis, shared by the instances of a fleet: `tasks/get`, `update` and
 * `cancel` work on any instance, records expire with their TTL (a Redis expiry), and every
 * transition is a compare-and-set on the record (retried on a conflict), so two instances
 * never both move one task. A `tasks/cancel` on one instance reaches the instance running the
 * task through pub/sub, which aborts the run there. Progress between transitions stays with the
 * instance running the task.
 */
export class RedisTaskStore implements TaskStore {
  private readonly prefix: string;
  private readonly live: string;
  private readonly channel: string;
  private readonly cancelListeners = new Set<(taskId: string) => void>();
  private subscribed: Promise<void> | undefined;

  /** `options.prefix`: the key prefix (default `mcpfusion:tasks`); every instance of a fleet uses the same. */
  constructor(
    private readonly redis: RedisConnection,
    options: { prefix?: string } = {}
  ) {
    this.prefix = `{${options.prefix ?? 'mcpfusion:tasks'}}`;
    this.live = `${this.prefix}:live`;
    this.channel = `${this.prefix}:cancelled`;
  }

  private key(taskId: string): string {
    return `${this.prefix}:t:${taskId}`;
  }

  async create(record: TaskRecord): Promise<void> {
    const ttl = Math.max(1, record.createdAt + record.ttlMs - Date.now());
    await this.redis.client.multi().set(this.key(record.taskId), JSON.stringify(record), { PX: ttl }).sAdd(this.live, record.taskId).exec();
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const stored = await this.redis.client.get(this.key(taskId));
    return stored === null ? undefined : (JSON.parse(stored) as TaskRecord);
  }

  async transition(taskId: string, from: readonly TaskStatus[], patch: TaskPatchOf): Promise<TaskRecord | undefined> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const stored = await this.redis.client.get(this.key(taskId));
      if (stored === null) return undefined;
      const record = JSON.parse(stored) as TaskRecord;
      if (!from.includes(record.status) || TERMINAL.has(record.status)) return undefined;
      const next = patched(record, patch);
      if (!next) return undefined;
      const written = await this.redis.client.eval(COMPARE_AND_SET, {
        keys: [this.key(taskId), this.live],
        arguments: [stored, JSON.stringify(next), LIVE.includes(next.status) ? '1' : '0', taskId]
      });
      if (Number(written) === 1) return next;
      // Another instance moved it meanwhile: read again and decide again.
    }
    throw new Error(`task ${taskId}: too many concurrent transitions`);
  }

  async sweep(): Promise<string[]> {
    // Records expire by themselves; the live set forgets the ones that did.
    const removed: string[] = [];
    for (const taskId of await this.redis.client.sMembers(this.live)) {
      if ((await this.redis.client.exists(this.key(taskId))) === 0) {
        await this.redis.client.sRem(this.live, taskId);
        removed.push(taskId);
      }
    }
    return removed;
  }

  async countLive(): Promise<number> {
    return this.redis.client.sCard(this.live);
  }

  /** The live set's records, in one MGET (ids whose record expired are skipped; the sweep forgets them). */
  async listLive(): Promise<TaskRecord[]> {
    const ids = await this.redis.client.sMembers(this.live);
    if (ids.length === 0) return [];
    const stored = await this.redis.client.mGet(ids.map((taskId) => this.key(taskId)));
    return stored.flatMap((value) => {
      if (value === null) return [];
      const record = JSON.parse(value) as TaskRecord;
      return LIVE.includes(record.status) ? [record] : [];
    });
  }

  /** Several instances share the store: a restarting instance cannot tell its orphans from another's running tasks, so none are touched. */
  async failOrphans(): Promise<number> {
    return 0;
  }

  /** Tells every instance that a task was cancelled (the one running it aborts its run). */
  announceCancel(taskId: string): void {
    void this.redis.client.publish(this.channel, taskId).catch(() => undefined);
  }

  onCancel(listener: (taskId: string) => void): () => void {
    this.cancelListeners.add(listener);
    this.subscribed ??= this.redis
      .subscriber()
      .then((subscriber) =>
        subscriber.subscribe(this.channel, (taskId: string) => {
          for (const each of this.cancelListeners) each(taskId);
        })
      )
      .catch(() => {
        this.subscribed = undefined;
      });
    return () => {
      this.cancelListeners.delete(listener);
    };
  }

  /** Resolves once cancellations from other instances are being received. */
  async ready(): Promise<void> {
    await this.subscribed;
  }
}
