import { positiveInt } from '../config/option-checks';
import type { JsonRpcErrorObject, TaskCaller } from '../types/tasks';
import { TaskInterruptedError } from '../errors';
import { TaskAdmissions, type TaskPrincipalOf } from './task-admission';
import { TaskLifecycle, type RunRound } from './task-lifecycle';
import { taskListenResponse } from './task-status-stream';
import type { TaskRecord } from './task-record';
import { TaskRuns } from './task-runs';
import { TaskSettlement } from './task-settlement';
import type { TaskStore } from './task-store';
import { TaskSweeper } from './task-sweeper';
import { TaskWatchers } from './task-watchers';

/** App-wide task settings (the app option `tasks`). */
export interface TaskSettings {
  /** Where task records live. Default: in memory (`InMemoryTaskStore`); `SqliteTaskStore` keeps them across restarts. */
  store?: TaskStore;
  /** How long a task (and its result) is kept, from its creation. Default 3,600,000 (one hour). */
  ttlMs?: number;
  /** The polling interval suggested to clients. Default 1,000. */
  pollIntervalMs?: number;
  /** Tasks not yet finished at most; beyond, new task requests get an `isError` result. Default 1,000. */
  maxLiveTasks?: number;
  /**
   * Tasks not yet finished one caller may have (by principal; without a token, by remote
   * address), so that one caller cannot take every place. Default 100.
   */
  maxLiveTasksPerCaller?: number;
  /** Tasks waiting for one caller's input at most (each holds its place until answered). Default 20. */
  maxWaitingTasksPerCaller?: number;
  /**
   * How long a task waits for input before it fails and frees its place, in ms (not the whole
   * `ttlMs`). Default 600,000 (ten minutes, the life of a continuation by default).
   */
  inputTimeoutMs?: number;
}

/**
 * The part of an app's tasks that the chains need, built before them: the records and runs of
 * this process, and the admissions (the live-task limits, whose task is whose: the
 * tasks extension's call-life point admits calls with), whose task handles settle a round's outcome.
 * Opening it settles the tasks an earlier process left running.
 */
export class TaskIntake {
  readonly admissions: TaskAdmissions;
  readonly runs: TaskRuns;
  readonly watchers = new TaskWatchers();

  constructor(
    readonly store: TaskStore,
    settings: TaskSettings,
    principalOf: TaskPrincipalOf,
    /** The JSON-RPC error object of a failure (the error boundary's mapping). */
    readonly errorObjectOf: (error: unknown) => JsonRpcErrorObject,
    log: (message: string) => void
  ) {
    const defaults = {
      ttlMs: positiveInt(settings.ttlMs, 3_600_000, 'tasks.ttlMs'),
      pollIntervalMs: positiveInt(settings.pollIntervalMs, 1_000, 'tasks.pollIntervalMs'),
      maxLive: positiveInt(settings.maxLiveTasks, 1_000, 'tasks.maxLiveTasks'),
      maxLivePerCaller: positiveInt(settings.maxLiveTasksPerCaller, 100, 'tasks.maxLiveTasksPerCaller'),
      maxWaitingPerCaller: positiveInt(settings.maxWaitingTasksPerCaller, 20, 'tasks.maxWaitingTasksPerCaller'),
      inputTimeoutMs: positiveInt(settings.inputTimeoutMs, 600_000, 'tasks.inputTimeoutMs')
    };
    const restart = errorObjectOf(new TaskInterruptedError('The server restarted while this task was running; its work was not resumed.'));
    const ready = store
      .failOrphans(restart, Date.now())
      .then((count) => {
        if (count > 0) log(`tasks: ${count} task(s) left running by an earlier process were settled to failed`);
      })
      .catch((error: unknown) => log(`tasks: could not settle tasks of an earlier process: ${String(error)}`));
    this.runs = new TaskRuns(store, this.watchers, ready);
    const settlement = new TaskSettlement(this.runs, defaults.inputTimeoutMs, log);
    this.admissions = new TaskAdmissions(this.runs, new TaskSweeper(this.runs, errorObjectOf), defaults, principalOf, settlement);
  }
}

/**
 * An app's tasks (SEP-2663), by role: the intake (admissions, records, runs: see
 * {@link TaskIntake}), the lifecycle (guarded transitions, update, cancel, the later rounds it
 * runs with `runRound`), watchers (listen streams, `app.callTool`'s `asTask`). Built by the
 * composition root, after the chains, when a tool declares `task` or the app has `tasks` settings.
 */
export class AppTasks {
  readonly admissions: TaskAdmissions;
  readonly lifecycle: TaskLifecycle;
  readonly watchers: TaskWatchers;
  readonly store: TaskStore;
  private readonly stopWatchingCancels: (() => void) | undefined;

  constructor(intake: TaskIntake, runRound: RunRound) {
    const { runs } = intake;
    this.admissions = intake.admissions;
    this.watchers = intake.watchers;
    this.store = intake.store;
    this.lifecycle = new TaskLifecycle(runs, intake.admissions, runRound, intake.errorObjectOf);
    // A cancel on another instance of a shared store reaches the run here.
    this.stopWatchingCancels = this.store.onCancel?.((taskId) => runs.running.get(taskId)?.('cancelled by the client (tasks/cancel)'));
  }

  /** A `subscriptions/listen` stream of task status for the ids this caller may see. */
  listen(id: string | number, taskIds: readonly string[], request: TaskCaller, signal: AbortSignal): Promise<Response> {
    return taskListenResponse(id, taskIds, request, this.lifecycle, this.watchers, signal);
  }

  /** A task's record (the harness reads it without a request). */
  record(taskId: string): Promise<TaskRecord | undefined> {
    return this.store.get(taskId);
  }

  /** Aborts every run of this process (graceful shutdown); their tasks fail, saying the server shut down. */
  close(): void {
    this.stopWatchingCancels?.();
    this.lifecycle.close();
  }
}
