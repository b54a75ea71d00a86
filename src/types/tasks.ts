/**
 * Tasks as the chain sees them: how a tool takes part, and the handle of a call that runs as a
 * task. Types only (a leaf of the import graph); `src/tasks/` implements them.
 */
import type { RequestFacts } from './core';
import type { TaskHandle } from './task-handle';
import type { TraceLinks } from './telemetry';

export type { CallOutcome, JsonRpcErrorObject, TaskHandle, TaskOutcome } from './task-handle';

/** How a tool takes part in tasks (`task` in its options). */
export interface ToolTaskSupport {
  /** `optional`: a task when the client declared the extension; `required`: never synchronously (-32021 without the extension). */
  readonly support: 'optional' | 'required';
  /** How long the task is kept from its creation, in ms (default: the app's `tasks.ttlMs`). */
  readonly ttlMs?: number;
  /** The polling interval suggested to clients, in ms (default: the app's `tasks.pollIntervalMs`). */
  readonly pollIntervalMs?: number;
  /**
   * When the call becomes a task. `'when-waiting'` (default): once its chain waits on anything
   * beyond the turn it started in (I/O, a timer, the queue or the lock) or reports progress;
   * questions asked before that are asked in the request (MRTR), as the spec recommends.
   * `'at-once'`: before the chain runs, so every question goes through `tasks/update` (for
   * example a confirmation a person may give later).
   */
  readonly create?: 'when-waiting' | 'at-once';
}

/**
 * A request as the tasks module reads it (a `tasks/*` request, a task listen, a call that may
 * become a task, `app.callTool`'s): who asks (its facts, what `principalOf` reads), its signal,
 * its telemetry links. An extension's request and a served request both are one.
 */
export interface TaskCaller extends RequestFacts {
  /** Aborted when the client stops waiting. */
  readonly signal?: AbortSignal;
  /** The request's telemetry, where the app records it. */
  readonly trace?: TraceLinks;
}

/** A call that may become a task, as its admission reads it: the caller, the tool and its raw arguments. */
export interface TaskCall extends TaskCaller {
  /** The tool called. */
  readonly subject: string;
  /** Its raw arguments. */
  readonly arguments?: Readonly<Record<string, unknown>>;
}

/** An admitted task request: it becomes a task with `create`, and its reservation ends with `release` (in `finally`). */
export interface TaskAdmission {
  /**
   * Stores the task's record (durable before it is announced) and returns its handle; `abort`
   * ends the call's run (tasks/cancel, expiry, shutdown).
   */
  create(
    toolName: string,
    support: ToolTaskSupport,
    statusMessage: string | undefined,
    abort: (reason: unknown) => void
  ): Promise<TaskHandle>;
  release(): void;
}
