import { randomUUID } from 'node:crypto';
import { AppClosedError, TaskLimitError, TaskNotFoundError } from '../errors';
import type { CallRequest } from '../types/request';
import type { TaskAdmission, TaskEscalation, TaskHandle, TaskOutcome, ToolTaskSupport } from '../types/tasks';
import { createTaskResult, type TaskRecord } from './task-record';
import type { TaskRuns } from './task-runs';
import type { TaskSweeper } from './task-sweeper';

/** Who a request's caller is (`principalOf`), or null where there is none. */
export type TaskPrincipalOf = (request: CallRequest) => string | null;

/** The defaults of a task's record (the app option `tasks`, checked). */
export interface TaskDefaults {
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly maxLive: number;
}

/**
 * Which task requests are let in, and whose tasks are whose. A request that may become a task
 * is admitted against the live-task limit (a reservation counted until it is stored or
 * answered without one, so concurrent requests cannot pass the limit together); a task is
 * created bound to its caller, and every later request about it (`tasks/get`, `update`,
 * `cancel`, a listen) finds it only for that caller: anyone else is told it does not exist.
 */
export class TaskAdmissions implements TaskEscalation {
  /** Task requests admitted but not yet stored. */
  private starting = 0;

  constructor(
    private readonly runs: TaskRuns,
    private readonly sweeper: TaskSweeper,
    private readonly defaults: TaskDefaults,
    private readonly principalOf: TaskPrincipalOf,
    /** Records a round's outcome as the task's next status (the lifecycle's `settle`). */
    private readonly settle: (taskId: string, outcome: TaskOutcome, abort: (reason: unknown) => void) => Promise<void>
  ) {}

  async admit(request: CallRequest): Promise<TaskAdmission> {
    await this.runs.ready;
    if (this.runs.closed) throw new AppClosedError();
    await this.sweeper.sweep();
    this.starting++;
    let released = false;
    const release = (): void => {
      if (!released) this.starting--;
      released = true;
    };
    try {
      if ((await this.runs.store.countLive()) + this.starting > this.defaults.maxLive) throw new TaskLimitError(this.defaults.maxLive);
    } catch (error) {
      release();
      throw error;
    }
    return { create: (toolName, support, statusMessage, abort) => this.create(request, toolName, support, statusMessage, abort), release };
  }

  /** Stores the record (durable before it is announced: a tasks/get right after the answer finds it) and hands out the handle. */
  private async create(
    request: CallRequest,
    toolName: string,
    support: ToolTaskSupport,
    statusMessage: string | undefined,
    abort: (reason: unknown) => void
  ): Promise<TaskHandle> {
    const now = Date.now();
    const record: TaskRecord = {
      taskId: randomUUID(),
      principal: this.principalOf(request),
      toolName,
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
    this.runs.running.set(record.taskId, abort);
    try {
      await this.runs.store.create(record);
    } catch (error) {
      // Not stored: the call is not a task, and nothing of it may stay behind to be aborted later.
      this.runs.running.delete(record.taskId);
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
      settle: (outcome) => this.settle(taskId, outcome, abort)
    };
  }

  /** The task, for the caller it is bound to; anyone else is told it does not exist (-32602). */
  async own(taskId: string, request: CallRequest): Promise<TaskRecord> {
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
