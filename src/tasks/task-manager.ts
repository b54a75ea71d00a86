import { randomUUID } from 'node:crypto';
import {
  ProtocolError,
  ProtocolErrorCode,
  isInputRequiredResult,
  type CallToolResult,
  type InputRequiredResult
} from '@modelcontextprotocol/server';
import type { CallRequest } from '../pipeline/call-request';
import type { ProgressSend } from '../pipeline/progress';
import { ownValue } from '../wire/own-properties';
import { LIVE, createTaskResult, detailedTask, type TaskRecord } from './task-record';
import type { TaskStore } from './task-store';

/** How a tool takes part in tasks (`task` in its options). */
export interface ToolTaskSupport {
  /** `optional`: a task when the client declared the extension; `required`: never synchronously (-32021 without the extension). */
  readonly support: 'optional' | 'required';
  readonly ttlMs?: number;
  readonly pollIntervalMs?: number;
  /**
   * When the call becomes a task. `'when-waiting'` (default): once its handler waits on anything
   * beyond the current turn or reports progress; questions asked before that are asked in the
   * request (MRTR), as the spec recommends. `'at-once'`: before the chain runs, so every
   * question goes through `tasks/update` (for example a confirmation a person may give later).
   */
  readonly create?: 'when-waiting' | 'at-once';
}

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
}

/** What the manager runs a round of a task with: the tool's chain, as any call. */
export type RunTool = (toolName: string, request: CallRequest) => Promise<CallToolResult | InputRequiredResult>;

/** A task's outcome as a client would read it (`tasks/get`). */
export type TaskView = Record<string, unknown> & { taskId: string; status: TaskRecord['status'] };

const NOT_FOUND = 'Failed to retrieve task: Task not found';

/**
 * Runs tool calls as tasks (SEP-2663) on the same compiled chain as any call. A call of a
 * task-capable tool from a client that declared the extension starts as usual; if its chain
 * settles before its handler waits on anything beyond the current turn or reports progress (a
 * result, or a request for input asked before any work: the spec's "resolve MRTR exchanges
 * synchronously first"), that is the answer. Otherwise the call becomes a task at that moment:
 * the record is stored, `CreateTaskResult` is answered,
 * and the chain goes on in the background with the task's own signal (the request ending does
 * not stop it) and its progress as the task's status message.
 *
 * A round that asks for input ends the chain (no queue slot or lock is held while a person
 * answers): the task waits in `input_required` under task-unique keys, with the sealed
 * continuation kept in the record; `tasks/update` collects answers to the outstanding keys and,
 * once every one is answered, re-enters the handler with them, through the same validation,
 * re-asking and round cap as any call. `tasks/cancel` settles the task to `cancelled` at once
 * and aborts its run. Every change is a guarded transition of the store: terminal states never
 * change. Tasks are bound to the caller (`principalOf`): another caller is told the id is unknown.
 */
export class TaskManager {
  private readonly running = new Map<string, AbortController>();
  /** The latest progress of tasks running here: shown by tasks/get, not written to the store on every report. */
  private readonly progressOf = new Map<string, { message: string; at: number }>();
  /** Listeners of task changes (listen streams): called on every change of the task, until removed. */
  private readonly watchers = new Map<string, Set<() => void>>();
  private readonly ttlMs: number;
  private readonly pollIntervalMs: number;
  private readonly maxLive: number;
  private readonly ready: Promise<void>;
  private closed = false;
  private nextSweepAt = 0;
  private readonly stopWatchingCancels: (() => void) | undefined;
  /** Task requests admitted but not yet stored (so concurrent requests cannot pass `maxLiveTasks` together). */
  private starting = 0;

  constructor(
    readonly store: TaskStore,
    settings: TaskSettings,
    private readonly run: RunTool,
    private readonly principalOf: (request: CallRequest) => string | null,
    private readonly log: (message: string) => void
  ) {
    this.ttlMs = positiveInt(settings.ttlMs, 3_600_000, 'tasks.ttlMs');
    this.pollIntervalMs = positiveInt(settings.pollIntervalMs, 1_000, 'tasks.pollIntervalMs');
    this.maxLive = positiveInt(settings.maxLiveTasks, 1_000, 'tasks.maxLiveTasks');
    // A cancel on another instance of a shared store reaches the run here.
    this.stopWatchingCancels = store.onCancel?.((taskId) => this.running.get(taskId)?.abort('cancelled by the client (tasks/cancel)'));
    this.ready = store
      .failOrphans('The server restarted while this task was running; its work was not resumed.', Date.now())
      .then((count) => {
        if (count > 0) this.log(`tasks: ${count} task(s) left running by an earlier process were settled to failed`);
      })
      .catch((error: unknown) => this.log(`tasks: could not settle tasks of an earlier process: ${String(error)}`));
  }

  /** A call of a task-capable tool from a client that declared the extension: a result, a request for input, or a CreateTaskResult. */
  async start(
    toolName: string,
    support: ToolTaskSupport,
    request: CallRequest
  ): Promise<CallToolResult | InputRequiredResult | Record<string, unknown>> {
    await this.ready;
    if (this.closed) return errorResult('The server is shutting down; the task was not started.');
    await this.sweep();
    this.starting++;
    try {
      if ((await this.store.countLive()) + this.starting > this.maxLive) {
        return errorResult(`Server busy: ${this.maxLive} tasks are already running or waiting. Retry later.`);
      }
      return await this.begin(toolName, support, request);
    } finally {
      this.starting--;
    }
  }

  private async begin(
    toolName: string,
    support: ToolTaskSupport,
    request: CallRequest
  ): Promise<CallToolResult | InputRequiredResult | Record<string, unknown>> {
    const taskId = randomUUID();
    const controller = new AbortController();
    const recordOf = (statusMessage: string | undefined): TaskRecord => {
      const now = Date.now();
      return {
        taskId,
        principal: this.principalOf(request),
        toolName,
        arguments: { ...(request.arguments ?? {}) },
        clientCapabilities: { ...(request.clientCapabilities ?? {}) },
        status: 'working',
        ...(statusMessage !== undefined ? { statusMessage } : {}),
        createdAt: now,
        lastUpdatedAt: now,
        ttlMs: support.ttlMs ?? this.ttlMs,
        pollIntervalMs: support.pollIntervalMs ?? this.pollIntervalMs,
        rounds: 0
      };
    };
    let announced = false;
    /** Stores the record (durable before it is announced: a tasks/get right after the answer finds it). */
    const announce = async (statusMessage: string | undefined): Promise<TaskRecord> => {
      const record = recordOf(statusMessage);
      this.running.set(taskId, controller);
      await this.store.create(record);
      announced = true;
      return record;
    };
    let lastMessage: string | undefined;
    let escalate: () => void = () => undefined;
    const progress: ProgressSend = async (percent, message) => {
      lastMessage = message ?? `${Math.round(percent)}%`;
      escalate();
      if (announced) this.touch(taskId, lastMessage);
    };
    if (support.create === 'at-once') {
      // Stored before the chain starts (before the handler can open a transaction of its own, say).
      const created = await announce(undefined);
      void this.run(toolName, this.taskRequest(request, controller.signal, progress)).then(
        (value) => this.settle(taskId, { value }, controller),
        (error: unknown) => this.settle(taskId, { error }, controller)
      );
      return createTaskResult(created);
    }
    const upstream = request.signal;
    const follow = (): void => controller.abort(upstream?.reason);
    if (upstream?.aborted) follow();
    else upstream?.addEventListener('abort', follow, { once: true });
    let isTask = false;
    const escalated = new Promise<undefined>(
      (resolve) =>
        (escalate = () => {
          isTask = true;
          resolve(undefined);
        })
    );
    const outcome = this.run(
      toolName,
      this.taskRequest({ ...request, onWaiting: escalate }, controller.signal, progress, () => isTask)
    ).then(
      (value) => ({ value }),
      (error: unknown) => ({ error })
    );
    // A call that settles before its handler waits on anything (or reports progress) is answered as any call.
    const first = await Promise.race([outcome, escalated]);
    upstream?.removeEventListener('abort', follow);
    if (first) {
      // Settled before it waited: answered as any call (MRTR input asked before the task exists, or the result).
      if ('error' in first) throw first.error;
      return first.value;
    }
    const created = await announce(lastMessage);
    void outcome.then((settled) => this.settle(taskId, settled, controller));
    return createTaskResult(created);
  }

  /** `tasks/get`: the detailed task, or -32602 when there is none for this caller. */
  async get(taskId: string, request: CallRequest): Promise<TaskView> {
    const record = await this.own(taskId, request);
    const progress = record.status === 'working' ? this.progressOf.get(taskId) : undefined;
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
    const record = await this.own(taskId, request);
    if (record.status !== 'input_required') return ACK;
    const answered = await this.store.transition(taskId, ['input_required'], (current) => {
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
        lastUpdatedAt: now
      };
    });
    if (answered) this.changed(taskId);
    if (answered?.status === 'working') this.resume(answered, request);
    return ACK;
  }

  /** `tasks/cancel`: a live task is `cancelled` at once and its run aborted; a finished one is left as it is. Both are acked. */
  async cancel(taskId: string, request: CallRequest): Promise<Record<string, unknown>> {
    const record = await this.own(taskId, request);
    if (!LIVE.includes(record.status)) return ACK;
    // The run first: its stages release the queue slot and the lock (and roll a transaction back) at once.
    this.running.get(taskId)?.abort('cancelled by the client (tasks/cancel)');
    const cancelled = await this.store.transition(taskId, LIVE, {
      status: 'cancelled',
      statusMessage: 'Cancelled by the client',
      lastUpdatedAt: Date.now()
    });
    if (cancelled) {
      this.store.announceCancel?.(taskId);
      this.changed(taskId);
    }
    return ACK;
  }

  /** Resolves at the task's next change (for the harness, which follows a task as a client would, without sleeping). */
  nextChange(taskId: string, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const stop = this.watch(taskId, () => {
        stop();
        signal?.removeEventListener('abort', abort);
        resolve();
      });
      const abort = (): void => {
        stop();
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', abort, { once: true });
    });
  }

  /** A task's record for its own caller (the harness reads it without a request). */
  async record(taskId: string): Promise<TaskRecord | undefined> {
    return this.store.get(taskId);
  }

  /** Aborts every run of this process (graceful shutdown): their tasks are settled to `failed`, saying the server shut down. */
  close(): void {
    this.closed = true;
    this.stopWatchingCancels?.();
    for (const [taskId, controller] of this.running) {
      void this.store
        .transition(taskId, LIVE, {
          status: 'failed',
          statusMessage: 'The server shut down while this task was running.',
          lastUpdatedAt: Date.now(),
          error: { code: -32603, message: 'The server shut down while this task was running.' }
        })
        .then(() => this.changed(taskId))
        .catch(() => undefined);
      controller.abort('the server is shutting down');
    }
  }

  /** The request of one round: the task's signal and progress; no stream of its own to close or log to. */
  private taskRequest(request: CallRequest, signal: AbortSignal, progress: ProgressSend, isTask: () => boolean = () => true): CallRequest {
    const round = { ...request, signal, sendProgress: progress, sendLog: undefined, closeStream: undefined };
    // Read when the call fails: an exception fails a task, but is an isError result for a call answered in the request.
    Object.defineProperty(round, 'exceptionsFail', { get: isTask, enumerable: true });
    return round;
  }

  /** Re-enters the handler with every answer of the round, in the background. */
  private resume(record: TaskRecord, request: CallRequest): void {
    const controller = new AbortController();
    this.running.set(record.taskId, controller);
    const keys = record.inputKeys ?? {};
    const answers: Record<string, unknown> = {};
    for (const [taskKey, answer] of Object.entries(record.inputResponses ?? {})) answers[keys[taskKey] ?? taskKey] = answer;
    const progress: ProgressSend = async (percent, message) => this.touch(record.taskId, message ?? `${Math.round(percent)}%`);
    const round: CallRequest = this.taskRequest(
      {
        ...request,
        subject: record.toolName,
        arguments: record.arguments,
        clientCapabilities: record.clientCapabilities,
        requestState: record.requestState,
        inputResponses: answers,
        era: 'modern'
      },
      controller.signal,
      progress
    );
    void this.run(record.toolName, round).then(
      (value) => this.settle(record.taskId, { value }, controller),
      (error: unknown) => this.settle(record.taskId, { error }, controller)
    );
  }

  /** The end of a round: the task's next status (a cancelled task stays cancelled: the transition needs `working`). */
  private async settle(
    taskId: string,
    outcome: { value?: CallToolResult | InputRequiredResult; error?: unknown },
    controller: AbortController
  ): Promise<void> {
    if (this.running.get(taskId) === controller) this.running.delete(taskId);
    this.progressOf.delete(taskId);
    const now = Date.now();
    try {
      if ('error' in outcome) {
        const error = jsonRpcError(outcome.error);
        await this.store.transition(taskId, ['working'], { status: 'failed', statusMessage: error.message, error, lastUpdatedAt: now });
      } else if (outcome.value && isInputRequiredResult(outcome.value)) {
        const asked = outcome.value;
        await this.store.transition(taskId, ['working'], (current) => {
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
        // The result as the call itself would have answered it (a 2026-07-28 result carries its resultType).
        const result: Record<string, unknown> = { ...(outcome.value as Record<string, unknown>), resultType: 'complete' };
        await this.store.transition(taskId, ['working'], {
          status: 'completed',
          statusMessage: result.isError === true ? 'Completed with a tool error' : 'Completed',
          result,
          lastUpdatedAt: now
        });
      }
    } catch (error) {
      this.log(`tasks: could not record the outcome of task ${taskId}: ${String(error)}`);
    }
    this.changed(taskId);
  }

  /** The status message of a working task (its latest progress), kept in memory until the round ends. */
  private touch(taskId: string, message: string): void {
    this.progressOf.set(taskId, { message, at: Date.now() });
    this.changed(taskId);
  }

  /** The task, for the caller it is bound to; anyone else is told it does not exist (-32602). */
  private async own(taskId: string, request: CallRequest): Promise<TaskRecord> {
    await this.ready;
    if (typeof taskId !== 'string' || taskId === '') throw new ProtocolError(ProtocolErrorCode.InvalidParams, NOT_FOUND);
    await this.sweep();
    const record = await this.store.get(taskId);
    // Past its TTL it is gone, swept or not yet.
    const expired = record !== undefined && record.createdAt + record.ttlMs <= Date.now();
    if (!record || expired || record.principal !== this.principalOf(request))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, NOT_FOUND);
    return record;
  }

  /** Removes expired tasks; a run of one that expired is aborted. */
  private async sweep(): Promise<void> {
    // At most once a second: a sweep is store I/O (a scan in Redis), and expired records are refused anyway (own).
    const now = Date.now();
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + SWEEP_INTERVAL_MS;
    let removed: string[];
    try {
      removed = await this.store.sweep(now);
    } catch {
      return; // a store that is busy now sweeps next time; expired records are refused meanwhile (own)
    }
    for (const taskId of removed) {
      this.progressOf.delete(taskId);
      this.running.get(taskId)?.abort('the task expired (ttlMs)');
      this.running.delete(taskId);
      this.changed(taskId);
    }
  }

  /** Calls `listener` on every change of the task (its status, message, input requests); returns the removal. */
  watch(taskId: string, listener: () => void): () => void {
    const set = this.watchers.get(taskId) ?? new Set();
    this.watchers.set(taskId, set);
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.watchers.delete(taskId);
    };
  }

  private changed(taskId: string): void {
    for (const listener of [...(this.watchers.get(taskId) ?? [])]) listener();
  }
}

const SWEEP_INTERVAL_MS = 1_000;

const ACK: Record<string, unknown> = Object.freeze({ resultType: 'complete' }) as Record<string, unknown>;

function pick(map: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, map[key]]));
}

function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/** A thrown failure as the JSON-RPC error object a failed task carries. */
function jsonRpcError(error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof ProtocolError)
    return { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) };
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  return { code: typeof code === 'number' ? code : -32603, message };
}

function positiveInt(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) throw new TypeError(`${name} must be a positive whole number (got ${String(value)})`);
  return value;
}
