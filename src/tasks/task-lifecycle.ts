import { setTimeout as delay } from 'node:timers/promises';
import { TaskInterruptedError } from '../errors';
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { JsonRpcErrorObject, TaskCaller, TaskHandle } from '../types/tasks';
import { ownValue } from '../wire/own-properties';
import type { TaskAdmissions } from './task-admission';
import { LIVE, detailedTask, type TaskRecord } from './task-record';
import type { TaskRuns } from './task-runs';
import { CANCELLED } from './task-settlement';

/** A task's later round, as the lifecycle asks for it to run: the tool, what it runs with, and its task. */
export interface TaskRound {
  readonly toolName: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The capabilities the client declared when it created the task. */
  readonly clientCapabilities: ClientCapabilities;
  readonly requestState: string | undefined;
  /** Every answer of the round, by the keys the tool asked with. */
  readonly inputResponses: Readonly<Record<string, unknown>>;
  /** Aborted by the task's cancel, expiry, or the app's shutdown (not by the request that resumed it). */
  readonly signal: AbortSignal;
  /** The task the round's outcome settles. */
  readonly task: TaskHandle;
}

/** What the lifecycle runs a later round with: the tool's chain, in task mode; `resumedBy` the request that answered last. */
export type RunRound = (round: TaskRound, resumedBy: TaskCaller) => void;

/** A task's outcome as a client reads it (`tasks/get`). */
export type TaskView = Record<string, unknown> & { taskId: string; status: TaskRecord['status'] };

const ACK: Record<string, unknown> = Object.freeze({ resultType: 'complete' }) as Record<string, unknown>;

/** How long a cancel of a run on another instance waits for that run's decision, and how often it looks. */
const REMOTE_DECISION_MS = 5_000;
const REMOTE_POLL_MS = 20;

/**
 * A task's life after it is created, as guarded transitions of the store (terminal statuses
 * never change): a round's outcome settles it (`task-settlement.ts`: `completed`, `failed`, or
 * `input_required` with the sealed continuation kept under task-unique keys); `tasks/update` collects
 * answers to the outstanding keys and, once every one is answered, re-enters the handler with
 * them in task mode. `tasks/cancel` of a task waiting for input cancels it at once (a
 * compare-and-set against `tasks/update`: exactly one wins); of a working task it asks the run to
 * stop (on whichever instance runs it) and the run's own end decides: `cancelled` when it was
 * stopped before it completed, its result when it completed first. So the task's final status
 * always agrees with what happened, across instances; a local cancel answers once that status
 * is recorded.
 */
export class TaskLifecycle {
  constructor(
    private readonly runs: TaskRuns,
    private readonly admissions: TaskAdmissions,
    private readonly runRound: RunRound,
    /** The JSON-RPC error object of a failure (the error boundary's mapping). */
    private readonly errorObjectOf: (error: unknown) => JsonRpcErrorObject
  ) {}

  /** `tasks/get`: the detailed task, or -32602 when there is none for this caller. */
  async get(taskId: string, request: TaskCaller): Promise<TaskView> {
    const record = await this.admissions.own(taskId, request);
    request.trace?.linkCreator(record.createdBy, taskId);
    const progress = record.status === 'working' ? this.runs.progressOf.get(taskId) : undefined;
    if (progress) {
      record.statusMessage = progress.message;
      record.lastUpdatedAt = Math.max(record.lastUpdatedAt, progress.at);
    }
    return detailedTask(record) as TaskView;
  }

  /**
   * `tasks/update`: answers to outstanding requests (others are ignored). Once every outstanding
   * request is answered, the handler is re-entered with the answers, in the background.
   */
  async update(taskId: string, inputResponses: Record<string, unknown>, request: TaskCaller): Promise<Record<string, unknown>> {
    const record = await this.admissions.own(taskId, request);
    request.trace?.linkCreator(record.createdBy, taskId);
    if (record.status !== 'input_required') return ACK;
    const answered = await this.runs.store.transition(taskId, ['input_required'], (current) => {
      const outstanding = Object.keys(current.inputRequests ?? {});
      const fresh: Record<string, unknown> = {};
      for (const key of outstanding) {
        const answer = ownValue(inputResponses, key);
        if (answer !== undefined) fresh[key] = answer;
      }
      if (Object.keys(fresh).length === 0) return undefined;
      const responses = { ...(current.inputResponses ?? {}), ...fresh };
      const remaining = outstanding.filter((key) => !(key in fresh));
      const now = Date.now();
      if (remaining.length > 0) {
        return { inputResponses: responses, inputRequests: pick(current.inputRequests ?? {}, remaining), lastUpdatedAt: now };
      }
      return {
        status: 'working',
        statusMessage: 'Working',
        inputResponses: responses,
        inputRequests: undefined,
        inputDeadline: undefined,
        lastUpdatedAt: now
      };
    });
    if (answered) this.runs.watchers.changed(taskId);
    if (answered?.status === 'working') this.resume(answered, request);
    return ACK;
  }

  /** `tasks/cancel`: acked whatever the task's state (idempotent on a finished task). */
  async cancel(taskId: string, request: TaskCaller): Promise<Record<string, unknown>> {
    let record: TaskRecord | undefined = await this.admissions.own(taskId, request);
    request.trace?.linkCreator(record.createdBy, taskId);
    for (let attempt = 0; record && attempt < 8; attempt++, record = await this.runs.store.get(taskId)) {
      if (!LIVE.includes(record.status)) return ACK;
      const now = Date.now();
      if (record.status === 'input_required') {
        // Nothing runs: cancelled now, unless an update made it working meanwhile (then it is asked, below).
        const cancelled = await this.runs.store.transition(taskId, ['input_required'], CANCELLED(now));
        if (!cancelled) continue;
        this.runs.watchers.changed(taskId);
        return ACK;
      }
      const local = this.runs.running.get(taskId);
      if (local) {
        // The run is here: stopped first (its stages release the slot and the lock, and roll a
        // transaction back, at once); its end decides the status. The answer waits for that status
        // (the client may stop waiting).
        local('cancelled by the client (tasks/cancel)');
        await untilAborted(this.runs.settled(taskId), request.signal);
        return ACK;
      }
      // The run is on another instance: the request is recorded (a compare-and-set) and announced;
      // that run's end decides, so the status agrees with whether its effect happened.
      const asked = await this.runs.store.transition(taskId, ['working'], {
        cancelRequested: true,
        statusMessage: 'Cancelling',
        lastUpdatedAt: now
      });
      if (!asked) continue;
      this.runs.watchers.changed(taskId);
      this.runs.store.announceCancel?.(taskId);
      // The answer waits (a bounded while, and no longer than the client does) for that run to decide.
      await this.decided(taskId, request.signal);
      return ACK;
    }
    return ACK;
  }

  /** Resolves once a task asked to stop on another instance has left `working` (or after a bound, or when `signal` aborts). */
  private async decided(taskId: string, signal: AbortSignal | undefined): Promise<void> {
    for (let waited = 0; waited < REMOTE_DECISION_MS && !signal?.aborted; waited += REMOTE_POLL_MS) {
      await delay(REMOTE_POLL_MS, undefined, { signal }).catch(() => undefined);
      const record = await this.runs.store.get(taskId);
      if (!record || record.status !== 'working') return;
    }
  }

  /** Re-enters the handler with every answer of the round, in the background, as a round of the task. */
  private resume(record: TaskRecord, request: TaskCaller): void {
    const controller = new AbortController();
    const abort = (reason: unknown): void => controller.abort(reason);
    this.runs.started(record.taskId, abort);
    const keys = record.inputKeys ?? {};
    const answers: Record<string, unknown> = {};
    for (const [taskKey, answer] of Object.entries(record.inputResponses ?? {})) answers[keys[taskKey] ?? taskKey] = answer;
    this.runRound(
      {
        toolName: record.toolName,
        arguments: record.arguments,
        clientCapabilities: record.clientCapabilities,
        requestState: record.requestState,
        inputResponses: answers,
        signal: controller.signal,
        task: this.admissions.handle(record.taskId, {}, abort)
      },
      request
    );
  }

  /** Aborts every run of this process (graceful shutdown): their tasks are settled to `failed`, saying the server shut down. */
  close(): void {
    this.runs.closed = true;
    const error = this.errorObjectOf(new TaskInterruptedError('The server shut down while this task was running.'));
    for (const [taskId, abort] of this.runs.running) {
      void this.runs.store
        .transition(taskId, LIVE, { status: 'failed', statusMessage: error.message, lastUpdatedAt: Date.now(), error })
        .then(() => this.runs.watchers.changed(taskId))
        .catch(() => undefined);
      abort('the server is shutting down');
    }
  }
}

function pick(map: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, map[key]]));
}

/** `promise`, or (resolved) as soon as `signal` aborts. */
function untilAborted(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = (): void => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    void promise.then(done);
  });
}
