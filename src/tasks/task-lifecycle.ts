import { isInputRequiredResult, type InputRequiredResult } from '@modelcontextprotocol/server';
import { TaskInterruptedError } from '../errors';
import type { CallRequest } from '../types/request';
import type { JsonRpcErrorObject, TaskOutcome } from '../types/tasks';
import { ownValue } from '../wire/own-properties';
import type { TaskAdmissions } from './task-admission';
import { LIVE, detailedTask, type TaskRecord } from './task-record';
import type { TaskRuns } from './task-runs';

/** What the lifecycle runs a later round with: the tool's chain, in task mode. */
export type RunRound = (toolName: string, request: CallRequest) => void;

/** A task's outcome as a client reads it (`tasks/get`). */
export type TaskView = Record<string, unknown> & { taskId: string; status: TaskRecord['status'] };

const ACK: Record<string, unknown> = Object.freeze({ resultType: 'complete' }) as Record<string, unknown>;

/**
 * A task's life after it is created, as guarded transitions of the store (terminal statuses
 * never change): a round's outcome settles it (`completed`, `failed`, or `input_required` with
 * the sealed continuation kept in the record under task-unique keys); `tasks/update` collects
 * answers to the outstanding keys and, once every one is answered, re-enters the handler with
 * them in task mode; `tasks/cancel` settles a live task to `cancelled` at once and aborts its run.
 */
export class TaskLifecycle {
  constructor(
    private readonly runs: TaskRuns,
    private readonly admissions: TaskAdmissions,
    private readonly runRound: RunRound,
    /** The JSON-RPC error object of a failure (the error boundary's mapping). */
    private readonly errorObjectOf: (error: unknown) => JsonRpcErrorObject,
    private readonly log: (message: string) => void
  ) {}

  /** `tasks/get`: the detailed task, or -32602 when there is none for this caller. */
  async get(taskId: string, request: CallRequest): Promise<TaskView> {
    const record = await this.admissions.own(taskId, request);
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
  async update(taskId: string, inputResponses: Record<string, unknown>, request: CallRequest): Promise<Record<string, unknown>> {
    const record = await this.admissions.own(taskId, request);
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
      return { status: 'working', statusMessage: 'Working', inputResponses: responses, inputRequests: undefined, lastUpdatedAt: now };
    });
    if (answered) this.runs.watchers.changed(taskId);
    if (answered?.status === 'working') this.resume(answered, request);
    return ACK;
  }

  /** `tasks/cancel`: a live task is `cancelled` at once and its run aborted; a finished one is left as it is. Both are acked. */
  async cancel(taskId: string, request: CallRequest): Promise<Record<string, unknown>> {
    const record = await this.admissions.own(taskId, request);
    if (!LIVE.includes(record.status)) return ACK;
    // The run first: its stages release the queue slot and the lock (and roll a transaction back) at once.
    this.runs.running.get(taskId)?.('cancelled by the client (tasks/cancel)');
    const cancelled = await this.runs.store.transition(taskId, LIVE, {
      status: 'cancelled',
      statusMessage: 'Cancelled by the client',
      lastUpdatedAt: Date.now()
    });
    if (cancelled) {
      this.runs.store.announceCancel?.(taskId);
      this.runs.watchers.changed(taskId);
    }
    return ACK;
  }

  /** Re-enters the handler with every answer of the round, in the background, as a round of the task. */
  private resume(record: TaskRecord, request: CallRequest): void {
    let abort: (reason: unknown) => void = () => undefined;
    const controller = new AbortController();
    abort = (reason) => controller.abort(reason);
    this.runs.running.set(record.taskId, abort);
    const keys = record.inputKeys ?? {};
    const answers: Record<string, unknown> = {};
    for (const [taskKey, answer] of Object.entries(record.inputResponses ?? {})) answers[keys[taskKey] ?? taskKey] = answer;
    this.runRound(record.toolName, {
      ...request,
      subject: record.toolName,
      arguments: record.arguments,
      clientCapabilities: record.clientCapabilities,
      requestState: record.requestState,
      inputResponses: answers,
      era: 'modern',
      signal: controller.signal,
      sendProgress: undefined,
      sendLog: undefined,
      closeStream: undefined,
      mode: 'task',
      task: this.admissions.handle(record.taskId, {}, abort)
    });
  }

  /** The end of a round: the task's next status (a cancelled task stays cancelled: the transition needs `working`). */
  async settle(taskId: string, outcome: TaskOutcome, abort: (reason: unknown) => void): Promise<void> {
    this.runs.ended(taskId, abort);
    const now = Date.now();
    try {
      if ('error' in outcome) {
        const { error } = outcome;
        await this.runs.store.transition(taskId, ['working'], { status: 'failed', statusMessage: error.message, error, lastUpdatedAt: now });
      } else if (isInputRequiredResult(outcome.value)) {
        const asked = outcome.value as InputRequiredResult;
        await this.runs.store.transition(taskId, ['working'], (current) => {
          const round = current.rounds + 1;
          const inputRequests: Record<string, unknown> = {};
          const inputKeys: Record<string, string> = {};
          for (const [key, embedded] of Object.entries(asked.inputRequests ?? {})) {
            // Unique over the task's life (the spec): a request asked again in a later round gets a new key.
            const taskKey = `${key}#${round}`;
            inputRequests[taskKey] = embedded;
            inputKeys[taskKey] = key;
          }
          return {
            status: 'input_required',
            statusMessage: 'Waiting for input',
            inputRequests,
            inputKeys,
            inputResponses: {},
            requestState: asked.requestState,
            rounds: round,
            lastUpdatedAt: now
          };
        });
      } else {
        const result = outcome.value;
        await this.runs.store.transition(taskId, ['working'], {
          status: 'completed',
          statusMessage: result.isError === true ? 'Completed with a tool error' : 'Completed',
          result,
          lastUpdatedAt: now
        });
      }
    } catch (error) {
      this.log(`tasks: could not record the outcome of task ${taskId}: ${String(error)}`);
    }
    this.runs.watchers.changed(taskId);
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
