/**
 * Tasks (the 2026-07-28 extension `io.modelcontextprotocol/tasks`, SEP-2663): what a task is
 * as stored, and the wire shapes built from it. A record keeps what the wire never shows (the
 * caller it is bound to, the sealed continuation of a round waiting for input, the arguments
 * and capabilities it is re-entered with).
 */

/** The extension's identifier, in client and server capabilities. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Where a task is in its life: `working` and `input_required` are live; the other three are terminal and never left. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The statuses a task never leaves. */
export const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);
/** The statuses of a task that is not over. */
export const LIVE: readonly TaskStatus[] = ['working', 'input_required'];

/** One task as a store keeps it (plain JSON: a store may serialize it). */
export interface TaskRecord {
  /** The task's id: unguessable, the only handle a client has. */
  readonly taskId: string;
  /** The caller it is bound to (`principalOf`), or null for calls without one. */
  readonly principal: string | null;
  /**
   * Whose quota it counts against: the principal, else the caller's remote address
   * (`address:<ip>`), else `anonymous` (stdio, in-process).
   */
  readonly quotaKey?: string;
  /** The tool the task runs. */
  readonly toolName: string;
  /** The span of the request that created it (a W3C traceparent; telemetry links the task's later requests to it). */
  readonly createdBy?: string;
  /** The tool's arguments, as the call carried them (re-entered with after input). */
  readonly arguments: Record<string, unknown>;
  /** What the creating request declared it can do (the input channel of later rounds). */
  readonly clientCapabilities: Record<string, unknown>;
  /** Where the task is (changed only by a store's `transition`). */
  status: TaskStatus;
  /** A human-readable note on the status (`tasks/get` shows it). */
  statusMessage?: string;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  /** Epoch milliseconds of the last transition. */
  lastUpdatedAt: number;
  /** From creation; the record is removed once it is past. */
  readonly ttlMs: number;
  /** The polling interval suggested to clients, in milliseconds. */
  readonly pollIntervalMs: number;
  /** input_required: the requests outstanding, under task-unique keys. */
  inputRequests?: Record<string, unknown>;
  /** input_required: the answers received so far (a partial update), under task-unique keys. */
  inputResponses?: Record<string, unknown>;
  /** input_required: the round's keys as the handler knows them, by task-unique key. */
  inputKeys?: Record<string, string>;
  /** input_required: when the task stops waiting (epoch ms): unanswered by then, it fails and frees its place. */
  inputDeadline?: number;
  /** input_required: the sealed continuation the handler is re-entered with (never on the wire). */
  requestState?: string;
  /** How many rounds of input the task has asked (task-unique keys are numbered by it). */
  rounds: number;
  /** completed: the tool's result (an `isError` one included). */
  result?: Record<string, unknown>;
  /**
   * working: `tasks/cancel` asked the run to stop. The run's own end decides the status, so that
   * it agrees with what happened: `cancelled` when the run was stopped before it completed, the
   * result when it completed first (the extension allows a task to end so after a cancel).
   */
  cancelRequested?: boolean;
  /** failed: the JSON-RPC error object. */
  error?: {
    /** The JSON-RPC error code. */
    code: number;
    /** The error's message, as the client sees it. */
    message: string;
    /** The error's `data`, when it has any. */
    data?: unknown;
  };
}

/** The fields a transition may set. */
export type TaskPatch = Partial<Omit<TaskRecord, 'taskId' | 'principal' | 'quotaKey' | 'toolName' | 'arguments' | 'createdAt' | 'ttlMs'>>;

/** The `Task` fields every wire shape carries. */
function base(record: TaskRecord): Record<string, unknown> {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage !== undefined ? { statusMessage: record.statusMessage } : {}),
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs
  };
}

/** The flat `CreateTaskResult` (`resultType: "task"`): no result, error or input requests. */
export function createTaskResult(record: TaskRecord): Record<string, unknown> {
  return { resultType: 'task', ...base(record) };
}

/** The `DetailedTask` of `tasks/get`: the status's own payload inlined. */
export function detailedTask(record: TaskRecord): Record<string, unknown> {
  const out: Record<string, unknown> = { resultType: 'complete', ...base(record) };
  if (record.status === 'input_required') out.inputRequests = record.inputRequests ?? {};
  if (record.status === 'completed') out.result = record.result ?? { content: [] };
  if (record.status === 'failed') out.error = record.error ?? { code: -32603, message: 'The task failed' };
  return out;
}

/** Whether a client's capabilities declare the tasks extension. */
export function declaresTasks(capabilities: unknown): boolean {
  if (!capabilities || typeof capabilities !== 'object') return false;
  const extensions = (capabilities as { extensions?: unknown }).extensions;
  if (!extensions || typeof extensions !== 'object' || Array.isArray(extensions)) return false;
  return Object.prototype.hasOwnProperty.call(extensions, TASKS_EXTENSION);
}
