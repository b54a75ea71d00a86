import { randomUUID } from 'node:crypto';
import { AppClosedError, TaskLimitError, TaskNotFoundError } from '../errors';
import type { TaskAdmission, TaskCall, TaskCaller, TaskHandle, ToolTaskSupport } from '../types/tasks';
import { createTaskResult, type TaskRecord } from './task-record';
import type { TaskRuns } from './task-runs';
import type { TaskSettlement } from './task-settlement';
import type { TaskSweeper } from './task-sweeper';

/** Who a request's caller is (`principalOf`), or null where there is none. */
export type TaskPrincipalOf = (request: TaskCaller) => string | null;

/** The defaults of a task's record and the limits (the app option `tasks`, checked). */
export interface TaskDefaults {
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly maxLive: number;
  /** Live tasks one caller may have (its quota key: principal, else remote address). */
  readonly maxLivePerCaller: number;
  /** Tasks waiting for one caller's input at most. */
  readonly maxWaitingPerCaller: number;
  /** How long a task waits for input before it fails and frees its place (ms). */
  readonly inputTimeoutMs: number;
}

/** Whose quota a request counts against: its principal, else its remote address, else `anonymous`. */
export function quotaKeyOf(principal: string | null, request: TaskCaller): string {
  if (principal !== null) return principal;
  return request.remoteAddress !== undefined ? `address:${request.remoteAddress}` : 'anonymous';
}

/**
 * Which task requests are let in, and whose tasks are whose. A request that may become a task
 * is admitted against the live-task limit (a reservation counted until it is stored or
 * answered without one, so concurrent requests cannot pass the limit together); a task is
 * created bound to its caller, and every later request about it (`tasks/get`, `update`,
 * `cancel`, a listen) finds it only for that caller: anyone else is told it does not exist.
 */
export class TaskAdmissions {
  /** Task requests admitted but not yet stored, in all and by quota key. */
  private starting = 0;
  private readonly startingOf = new Map<string, number>();

  constructor(
    private readonly runs: TaskRuns,
    private readonly sweeper: TaskSweeper,
    private readonly defaults: TaskDefaults,
    private readonly principalOf: TaskPrincipalOf,
    /** Records a round's outcome as the task's next status. */
    private readonly settlement: TaskSettlement
  ) {}

  /**
   * Admits a call that may become a task: a reservation counted against the live-task limits
   * until it is released. Throws `TaskLimitError` (or `AppClosedError`) when it cannot.
   */
  async admit(request: TaskCall): Promise<TaskAdmission> {
    await this.runs.ready;
    if (this.runs.closed) throw new AppClosedError();
    await this.sweeper.sweep();
    const key = quotaKeyOf(this.principalOf(request), request);
    this.starting++;
    this.startingOf.set(key, (this.startingOf.get(key) ?? 0) + 1);
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.starting--;
      const left = (this.startingOf.get(key) ?? 1) - 1;
      if (left === 0) this.startingOf.delete(key);
      else this.startingOf.set(key, left);
    };
    try {
      // Checked right after the read, so a refused request gives its place back before the next one checks.
      this.checkLimits(key, await this.runs.store.listLive());
    } catch (error) {
      release();
      throw error;
    }
    return { create: (toolName, support, statusMessage, abort) => this.create(request, toolName, support, statusMessage, abort), release };
  }

  /** The app's limit and the caller's quotas, counting what is stored and what is admitted but not stored yet. */
  private checkLimits(key: string, live: readonly TaskRecord[]): void {
    const { maxLive, maxLivePerCaller, maxWaitingPerCaller } = this.defaults;
    if (live.length + this.starting > maxLive) throw new TaskLimitError(maxLive);
    let mine = this.startingOf.get(key) ?? 0;
    let waiting = 0;
    for (const record of live) {
      if ((record.quotaKey ?? record.principal ?? 'anonymous') !== key) continue;
      mine++;
      if (record.status === 'input_required') waiting++;
    }
    if (mine > maxLivePerCaller) throw new TaskLimitError(maxLivePerCaller, 'maxLiveTasksPerCaller');
    if (waiting >= maxWaitingPerCaller) throw new TaskLimitError(maxWaitingPerCaller, 'maxWaitingTasksPerCaller');
  }

  /** Stores the record (durable before it is announced: a tasks/get right after the answer finds it) and hands out the handle. */
  private async create(
    request: TaskCall,
    toolName: string,
    support: ToolTaskSupport,
    statusMessage: string | undefined,
    abort: (reason: unknown) => void
  ): Promise<TaskHandle> {
    const now = Date.now();
    const principal = this.principalOf(request);
    const createdBy = request.trace?.reference();
    const record: TaskRecord = {
      taskId: randomUUID(),
      principal,
      quotaKey: quotaKeyOf(principal, request),
      toolName,
      ...(createdBy ? { createdBy } : {}),
      arguments: { ...(request.arguments ?? {}) },
      clientCapabilities: { ...(request.clientCapabilities ?? {}) },
      status: 'working',
      ...(statusMessage !== undefined ? { statusMessage } : {}),
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: support.ttlMs ?? this.defaults.ttlMs,
      pollIntervalMs: support.pollIntervalMs ?? this.defaults.pollIntervalMs,
      rounds: 0
    };
    this.runs.started(record.taskId, abort);
    try {
      await this.runs.store.create(record);
    } catch (error) {
      // Not stored: the call is not a task, and nothing of it may stay behind to be aborted later.
      this.runs.ended(record.taskId, abort);
      this.runs.recorded(record.taskId);
      throw error;
    }
    return this.handle(record.taskId, createTaskResult(record), abort);
  }

  /** The handle of a task's run in this process: its progress becomes the status message, its outcome the next status. */
  handle(taskId: string, created: Record<string, unknown>, abort: (reason: unknown) => void): TaskHandle {
    return {
      taskId,
      created,
      report: (message) => this.runs.touch(taskId, message),
      settle: (outcome) => this.settlement.settle(taskId, outcome, abort)
    };
  }

  /** The task, for the caller it is bound to; anyone else is told it does not exist (-32602). */
  async own(taskId: string, request: TaskCaller): Promise<TaskRecord> {
    await this.runs.ready;
    if (typeof taskId !== 'string' || taskId === '') throw new TaskNotFoundError();
    await this.sweeper.sweep();
    const record = await this.runs.store.get(taskId);
    // Past its TTL it is gone, swept or not yet.
    const expired = record !== undefined && record.createdAt + record.ttlMs <= Date.now();
    if (!record || expired || record.principal !== this.principalOf(request)) throw new TaskNotFoundError();
    return record;
  }
}
