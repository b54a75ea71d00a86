import { setTimeout as delay } from 'node:timers/promises';
import { TERMINAL, type TaskRecord, type TaskStatus } from './task-record';
import { patched, type TaskFailure, type TaskPatchOf, type TaskStore } from './task-store';

/** What this store uses of a `better-sqlite3` database (so the framework does not depend on the driver). */
export interface SqliteDatabase {
  /** Runs SQL with no parameters (the table's creation). */
  exec(sql: string): unknown;
  /** A prepared statement. */
  prepare(sql: string): {
    /** Runs it. */
    run(...params: unknown[]): {
      /** How many rows it inserted, updated or deleted. */
      changes: number;
    };
    /** Its first row. */
    get(...params: unknown[]): unknown;
    /** All its rows. */
    all(...params: unknown[]): unknown[];
  };
  /** Wraps `fn` in a transaction. */
  transaction<A extends unknown[], R>(
    fn: (...args: A) => R
  ): {
    /** Runs it in a `BEGIN IMMEDIATE` transaction (the write lock taken first). */
    immediate(...args: A): R;
  } & ((...args: A) => R);
}

/**
 * Task records in a SQLite file (a `better-sqlite3` database you open and close), so they
 * survive a restart: finished tasks keep their results until their TTL, tasks waiting for input
 * can still be answered (with the same state key, within `stateTtlSeconds`), and tasks whose
 * work was running when the process died are settled to `failed` at startup (`failOrphans`).
 * It is for one process at a time: a process starting on the file settles every `working` task
 * in it, another live process's included (several instances share a store built for that,
 * see the scale-out work). Each transition is one
 * `BEGIN IMMEDIATE` transaction guarded by the current status: no lost update between the
 * task's run, a `tasks/cancel` and a sweep.
 *
 * Give it a connection of its own opened with `{ timeout: 0 }`: better-sqlite3 waits for a lock
 * by blocking the thread, which would stall the server while another connection holds a long
 * write transaction. A busy write is retried here instead, asynchronously, for `busyTimeoutMs`.
 */
export class SqliteTaskStore implements TaskStore {
  private readonly insert;
  private readonly select;
  private readonly update;
  private readonly expire;
  private readonly live;
  private readonly working;
  private readonly liveRecords;
  private readonly transact: (taskId: string, from: readonly TaskStatus[], patch: TaskPatchOf) => TaskRecord | undefined;

  private readonly busyTimeoutMs: number;

  /**
   * Creates the table (`options.table`, default `mcpfusion_tasks`) and its index if missing. A
   * busy write is retried for `options.busyTimeoutMs` milliseconds (default 5,000). Throws a
   * `TypeError` when `table` is not a plain SQL identifier.
   */
  constructor(db: SqliteDatabase, options: { table?: string; busyTimeoutMs?: number } = {}) {
    const table = options.table ?? 'mcpfusion_tasks';
    this.busyTimeoutMs = options.busyTimeoutMs ?? 5_000;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(table)) throw new TypeError(`SqliteTaskStore: ${JSON.stringify(table)} is not a table name`);
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${table} (task_id TEXT PRIMARY KEY, status TEXT NOT NULL, expires_at INTEGER NOT NULL, record TEXT NOT NULL);` +
        `CREATE INDEX IF NOT EXISTS ${table}_expiry ON ${table} (expires_at);`
    );
    this.insert = db.prepare(`INSERT INTO ${table} (task_id, status, expires_at, record) VALUES (?, ?, ?, ?)`);
    this.select = db.prepare(`SELECT record FROM ${table} WHERE task_id = ?`);
    this.update = db.prepare(`UPDATE ${table} SET status = ?, record = ? WHERE task_id = ? AND status = ?`);
    this.expire = db.prepare(`DELETE FROM ${table} WHERE expires_at <= ? RETURNING task_id`);
    this.live = db.prepare(`SELECT count(*) AS n FROM ${table} WHERE status IN ('working', 'input_required')`);
    this.working = db.prepare(`SELECT record FROM ${table} WHERE status = 'working'`);
    this.liveRecords = db.prepare(`SELECT record FROM ${table} WHERE status IN ('working', 'input_required')`);
    const apply = (taskId: string, from: readonly TaskStatus[], patch: TaskPatchOf): TaskRecord | undefined => {
      const row = this.select.get(taskId) as { record: string } | undefined;
      if (!row) return undefined;
      const record = JSON.parse(row.record) as TaskRecord;
      if (!from.includes(record.status) || TERMINAL.has(record.status)) return undefined;
      const previous = record.status;
      const next = patched(record, patch);
      if (!next) return undefined;
      const { changes } = this.update.run(next.status, JSON.stringify(next), taskId, previous);
      return changes === 1 ? next : undefined;
    };
    const tx = db.transaction(apply);
    this.transact = (taskId, from, patch) => tx.immediate(taskId, from, patch);
  }

  async create(record: TaskRecord): Promise<void> {
    await this.whenFree(() => this.insert.run(record.taskId, record.status, record.createdAt + record.ttlMs, JSON.stringify(record)));
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const row = this.select.get(taskId) as { record: string } | undefined;
    return row ? (JSON.parse(row.record) as TaskRecord) : undefined;
  }

  async transition(taskId: string, from: readonly TaskStatus[], patch: TaskPatchOf): Promise<TaskRecord | undefined> {
    return this.whenFree(() => this.transact(taskId, from, patch));
  }

  async sweep(now: number): Promise<string[]> {
    // One attempt: a sweep is never worth waiting for (a busy store is swept next time).
    return (this.expire.all(now) as Array<{ task_id: string }>).map((row) => row.task_id);
  }

  async countLive(): Promise<number> {
    return (this.live.get() as { n: number }).n;
  }

  async listLive(): Promise<TaskRecord[]> {
    return (this.liveRecords.all() as Array<{ record: string }>).map((row) => JSON.parse(row.record) as TaskRecord);
  }

  async failOrphans(error: TaskFailure, now: number): Promise<number> {
    let failed = 0;
    for (const row of this.working.all() as Array<{ record: string }>) {
      const record = JSON.parse(row.record) as TaskRecord;
      const settled = await this.whenFree(() =>
        this.transact(record.taskId, ['working'], {
          status: 'failed',
          statusMessage: error.message,
          lastUpdatedAt: now,
          error
        })
      );
      if (settled) failed++;
    }
    return failed;
  }

  /** Runs a write; while another connection holds the write lock, tries again later (without blocking) until `busyTimeoutMs`. */
  private async whenFree<T>(write: () => T): Promise<T> {
    const deadline = Date.now() + this.busyTimeoutMs;
    for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
      try {
        return write();
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (!code?.startsWith('SQLITE_BUSY') || Date.now() + wait > deadline) throw error;
      }
      await delay(wait);
    }
  }
}
