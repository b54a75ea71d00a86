import { LIVE, TERMINAL, type TaskPatch, type TaskRecord, type TaskStatus } from './task-record';

/** The JSON-RPC error object a failed task carries. */
export type TaskFailure = NonNullable<TaskRecord['error']>;

/** A transition's change: fixed, or computed from the current record (undefined: no change). */
export type TaskPatchOf = TaskPatch | ((current: Readonly<TaskRecord>) => TaskPatch | undefined);

/** The record after `patch` (fields set to undefined are removed), or undefined when the patch says no change. */
export function patched(record: TaskRecord, patch: TaskPatchOf): TaskRecord | undefined {
  const change = typeof patch === 'function' ? patch(record) : patch;
  if (!change) return undefined;
  const next = { ...record, ...change } as TaskRecord;
  for (const [key, value] of Object.entries(change)) if (value === undefined) delete (next as unknown as Record<string, unknown>)[key];
  return next;
}

/**
 * Where task records live. Every change is a transition: it applies only when the record's
 * status is one of `from`, atomically (no read-modify-write race between the task's own run,
 * a `tasks/cancel` and a sweep, in one process or several sharing the store). Terminal
 * statuses are never left, because no transition lists them in `from`.
 */
export interface TaskStore {
  /** Stores a new record; resolves once a `get` of its id would find it (durably, for a durable store). */
  create(record: TaskRecord): Promise<void>;
  /** The record of that id, or undefined (never created, or swept). */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Applies `patch` if the status is in `from`; the record after it, or undefined when it did
   * not apply (or there is none). A function patch is computed from the current record inside
   * the same atomic step (undefined: leave it as it is).
   */
  transition(taskId: string, from: readonly TaskStatus[], patch: TaskPatchOf): Promise<TaskRecord | undefined>;
  /** Removes the records whose TTL is over (at `now`, epoch ms); the ids removed. */
  sweep(now: number): Promise<string[]>;
  /** Tasks not yet terminal. */
  countLive(): Promise<number>;
  /**
   * The records of the tasks not yet terminal (at most the app's `maxLiveTasks`): read for the
   * per-caller quotas and to end tasks that waited for input too long.
   */
  listLive(): Promise<TaskRecord[]>;
  /**
   * At startup: settles every `working` task (its work died with the process that ran it) to
   * `failed` with `error` (a JSON-RPC error object, its message the status message); tasks
   * waiting for input keep waiting. Returns how many.
   */
  failOrphans(error: TaskFailure, now: number): Promise<number>;
  /** A store shared by several instances: tells them all that a task was cancelled. */
  announceCancel?(taskId: string): void;
  /** A store shared by several instances: calls `listener` when any instance cancels a task (the one running it aborts the run). */
  onCancel?(listener: (taskId: string) => void): () => void;
  /** Releases what the store holds (connections, timers). The framework does not call it: an app that owns the store does, in `onClose`. */
  close?(): void | Promise<void>;
}

/** Plain JSON copies, so no caller shares an object with the store. */
function copy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** The default store: in this process's memory (tasks end with the process). */
export class InMemoryTaskStore implements TaskStore {
  private readonly records = new Map<string, TaskRecord>();

  async create(record: TaskRecord): Promise<void> {
    this.records.set(record.taskId, copy(record));
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    return copy(this.records.get(taskId));
  }

  async transition(taskId: string, from: readonly TaskStatus[], patch: TaskPatchOf): Promise<TaskRecord | undefined> {
    const record = this.records.get(taskId);
    if (!record || !from.includes(record.status) || TERMINAL.has(record.status)) return undefined;
    const next = patched(copy(record), patch);
    if (!next) return undefined;
    this.records.set(taskId, copy(next));
    return next;
  }

  async sweep(now: number): Promise<string[]> {
    const removed: string[] = [];
    for (const [id, record] of this.records) {
      if (record.createdAt + record.ttlMs <= now) {
        this.records.delete(id);
        removed.push(id);
      }
    }
    return removed;
  }

  async listLive(): Promise<TaskRecord[]> {
    return [...this.records.values()].filter((record) => LIVE.includes(record.status)).map(copy);
  }

  async countLive(): Promise<number> {
    let live = 0;
    for (const record of this.records.values()) if (LIVE.includes(record.status)) live++;
    return live;
  }

  async failOrphans(): Promise<number> {
    return 0; // nothing outlives the process that holds this store
  }
}
