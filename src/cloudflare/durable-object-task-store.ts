import { LIVE, TERMINAL, type TaskRecord, type TaskStatus } from '../tasks/task-record';
import { patched, type TaskFailure, type TaskPatchOf, type TaskStore } from '../tasks/task-store';
import type { DurableObjectNamespaceLike } from './cloudflare-types';
import { ConfigurationError } from '../errors';
import { StateObjectClient } from './state-object-client';
import { StateObjectError } from './state-object-error';
import { MAX_VALUE_CHARS } from './state-request';

/** Options of {@link DurableObjectTaskStore}. */
export interface DurableObjectTaskStoreOptions {
  /** The name of the object instance holding the records. Default `mcpfusion-tasks`. */
  name?: string;
  /**
   * How long a round of a task may stay `working` after its last transition before it counts as
   * lost, in ms (default 60,000). A Worker's work after its response ends within 30 seconds (the
   * runtime cancels what is left), so a task still `working` well after that has no run anywhere:
   * it is settled to `failed` when it is next read, rather than left working until its TTL.
   */
  maxRunMs?: number;
}

/**
 * Task records for Cloudflare Workers, in a `FusionStateObject`: `tasks/get`, `tasks/update` and
 * `tasks/cancel` answer from any isolate, records expire with their TTL, and every transition is
 * a compare-and-set in the object (retried on a conflict), so two isolates never both move one
 * task. What stays in the isolate running a task: its run, and its progress between transitions.
 * A `tasks/cancel` that lands on another isolate records the request (`cancelRequested`, the
 * status message `Cancelling`) but cannot reach the run (the object pushes nothing): the run
 * ends on its own and its end decides the status.
 *
 * @example
 * ```ts
 * FusionApp.create({ tools, tasks: { store: new DurableObjectTaskStore(env.STATE) } });
 * ```
 */
export class DurableObjectTaskStore implements TaskStore {
  private readonly object: StateObjectClient;
  /** Tasks whose run this isolate started and that have not left `working` yet: what resolves when they do, and since when. */
  private readonly running = new Map<string, { done: Promise<void>; resolve: () => void; since: number }>();
  private readonly maxRunMs: number;
  /** The framework's error object for an interrupted task (given to `failOrphans` when the app opens). */
  private interrupted: TaskFailure | undefined;

  /** `namespace`: the Worker's binding to `FusionStateObject` (`env.STATE`). */
  constructor(namespace: DurableObjectNamespaceLike, options: DurableObjectTaskStoreOptions = {}) {
    this.object = new StateObjectClient(namespace, options.name ?? 'mcpfusion-tasks');
    this.maxRunMs = options.maxRunMs ?? 60_000;
    if (!Number.isSafeInteger(this.maxRunMs) || this.maxRunMs < 1)
      throw new ConfigurationError(`DurableObjectTaskStore: maxRunMs must be a positive whole number (got ${String(options.maxRunMs)})`);
  }

  /**
   * Resolves once every task whose run this isolate started (created `working`, or made
   * `working` again by a `tasks/update` answered here) has left `working`: its outcome, or its
   * next question, is recorded. A Worker passes it to `ctx.waitUntil` after each response, so
   * that the runtime keeps the isolate's work going after the `CreateTaskResult` was sent
   * (within the runtime's limit on work after a response: 30 seconds on Cloudflare).
   */
  async settled(): Promise<void> {
    for (;;) {
      // A run older than maxRunMs was cut off (its promise would never resolve): no request waits for it.
      const now = Date.now();
      for (const [taskId, run] of this.running) if (now - run.since > this.maxRunMs) this.follow(taskId, 'failed');
      if (this.running.size === 0) return;
      await Promise.all([...this.running.values()].map((run) => run.done));
    }
  }

  /** Follows a task's run in this isolate: tracked while `working`, released when it leaves it. */
  private follow(taskId: string, status: TaskStatus): void {
    if (status === 'working') {
      if (this.running.has(taskId)) return;
      let resolve!: () => void;
      const done = new Promise<void>((settle) => (resolve = settle));
      this.running.set(taskId, { done, resolve, since: Date.now() });
      return;
    }
    this.running.get(taskId)?.resolve();
    this.running.delete(taskId);
  }

  async create(record: TaskRecord): Promise<void> {
    if (record.status === 'working') this.follow(record.taskId, 'working');
    try {
      await this.createRecord(record);
    } catch (error) {
      this.follow(record.taskId, 'failed');
      throw error;
    }
  }

  private async createRecord(record: TaskRecord): Promise<void> {
    await this.object.send({
      op: 'task.create',
      taskId: record.taskId,
      record: JSON.stringify(record),
      expiresAt: record.createdAt + record.ttlMs,
      live: LIVE.includes(record.status)
    });
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const stored = await this.object.send<string | null>({ op: 'task.get', taskId });
    return stored === null ? undefined : this.unlessLost(JSON.parse(stored) as TaskRecord);
  }

  /**
   * A task `working` past `maxRunMs` since its last transition, whose run is not in this isolate:
   * its run was cut off with the isolate's work (the runtime's limit after a response). Settled to
   * `failed` (a compare-and-set: a run that records first wins), so a client polling it is told.
   */
  private async unlessLost(record: TaskRecord): Promise<TaskRecord> {
    const interrupted = this.interrupted;
    const now = Date.now();
    const lost = (current: Readonly<TaskRecord>): boolean =>
      current.status === 'working' && now - current.lastUpdatedAt > this.maxRunMs && !this.running.has(current.taskId);
    if (!interrupted || !lost(record)) return record;
    const message = `The Worker's run of this task ended before it recorded an outcome (no transition for ${this.maxRunMs} ms: work after a response is cut off by the runtime).`;
    const failed = await this.transition(record.taskId, ['working'], (current) =>
      lost(current) ? { status: 'failed', statusMessage: message, error: { ...interrupted, message }, lastUpdatedAt: now } : undefined
    );
    return failed ?? (await this.get(record.taskId)) ?? record;
  }

  /**
   * The record as it can be stored: one too large for the object (a huge result) fails, saying
   * so, rather than leaving the task `working` with an outcome nobody can read.
   */
  private storable(next: TaskRecord | undefined): TaskRecord | undefined {
    if (!next || JSON.stringify(next).length <= MAX_VALUE_CHARS || !this.interrupted) return next;
    const message = `The task's outcome is larger than the ${MAX_VALUE_CHARS} characters of JSON a task record may hold in the Durable Object; it was not kept.`;
    const { result: _result, inputRequests: _requests, inputResponses: _responses, requestState: _state, ...rest } = next;
    return { ...rest, status: 'failed', statusMessage: message, error: { ...this.interrupted, message } };
  }

  async transition(taskId: string, from: readonly TaskStatus[], patch: TaskPatchOf): Promise<TaskRecord | undefined> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const stored = await this.object.send<string | null>({ op: 'task.get', taskId });
      const record = stored === null ? undefined : (JSON.parse(stored) as TaskRecord);
      // Gone or over (settled elsewhere, swept): nothing of it runs on here.
      if (!record || TERMINAL.has(record.status)) {
        this.follow(taskId, 'failed');
        return undefined;
      }
      if (!from.includes(record.status)) return undefined;
      const next = this.storable(patched(record, patch));
      if (!next) return undefined;
      let written: boolean;
      try {
        written = await this.object.send<boolean>({
          op: 'task.cas',
          taskId,
          expected: stored as string,
          next: JSON.stringify(next),
          live: LIVE.includes(next.status)
        });
      } catch (error) {
        // A run's last transition that could not be written: nothing of it runs on here.
        if (next.status !== 'working') this.follow(taskId, 'failed');
        throw error;
      }
      if (written) {
        // A task made working here (an update answered here) runs here; one that left working has settled.
        if (next.status !== 'working' || record.status !== 'working') this.follow(taskId, next.status);
        return next;
      }
      // Another isolate moved it meanwhile: read again and decide again.
    }
    throw new StateObjectError(`task ${taskId}: too many concurrent transitions (other isolates kept changing it); retry`);
  }

  sweep(now: number): Promise<string[]> {
    return this.object.send<string[]>({ op: 'task.sweep', now });
  }

  countLive(): Promise<number> {
    return this.object.send<number>({ op: 'task.count' });
  }

  async listLive(): Promise<TaskRecord[]> {
    const stored = await this.object.send<string[]>({ op: 'task.live' });
    const records: TaskRecord[] = [];
    for (const text of stored) records.push(await this.unlessLost(JSON.parse(text) as TaskRecord));
    return records.filter((record) => LIVE.includes(record.status));
  }

  /**
   * Isolates share the object: a new isolate cannot tell another's running tasks from orphans, so
   * none are touched now. The error object is kept: a task found `working` past `maxRunMs` fails with it.
   */
  async failOrphans(error: TaskFailure): Promise<number> {
    this.interrupted = error;
    return 0;
  }
}
