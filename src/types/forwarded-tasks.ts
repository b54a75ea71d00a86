/**
 * Tasks run by another server and served through this app (a gateway's upstream tasks): what a
 * member source offers so that the app's tasks extension can serve them. Types only (a leaf of
 * the import graph); `src/gateway/tasks/` implements them for a gateway, `src/app/forwarded-tasks.ts`
 * serves them.
 */

/** The `tasks/*` methods a forwarded task answers. */
export type ForwardedTaskMethod = 'tasks/get' | 'tasks/update' | 'tasks/cancel';

/**
 * A source's forwarded tasks. Each task the source adopted has a front id of its own (what this
 * app's clients see) bound to the caller that created it: a request from anyone else, or for an
 * id the source never gave, finds nothing (`undefined`), exactly as an unknown id.
 */
export interface TaskForwarding {
  /** Whether the server behind the source offers the tasks extension now (the app then advertises it). */
  offered(): boolean;
  /** Whether `toolName` is one of the source's tools (its calls may come back as tasks). */
  serves(toolName: string): boolean;
  /**
   * A call of its tool `toolName` came back as a task (`resultType: "task"`): the task is recorded
   * for `owner`, and the `CreateTaskResult` the client gets (the front id in place of the
   * upstream's) returned. `created` is untrusted (the upstream's answer).
   */
  adopt(toolName: string, created: Readonly<Record<string, unknown>>, owner: string): Record<string, unknown>;
  /**
   * A `tasks/*` request for `taskId` (untrusted) from `owner`: forwarded to the server that runs
   * the task and its answer returned (the front id in place of the upstream's), or undefined when
   * the id is none of this source's tasks for that owner (the caller answers -32602).
   */
  forward(
    method: ForwardedTaskMethod,
    taskId: string,
    owner: string,
    params: Readonly<Record<string, unknown>>,
    signal: AbortSignal
  ): Promise<Record<string, unknown>> | undefined;
  /**
   * Follows the status of those of `taskIds` (untrusted) that are this source's tasks for
   * `owner`: each status the server behind it reports goes to `status` (as `tasks/get` shows
   * the task, under its front id). `followed`: the ids it follows (none: `ended` is settled);
   * `ended` settles when the server ended the stream (every task finished), `signal` aborted, or
   * the connection failed.
   */
  follow(
    taskIds: readonly string[],
    owner: string,
    signal: AbortSignal,
    status: (task: Record<string, unknown>) => void
  ): {
    /** The ids it follows (none: `ended` is settled). */
    readonly followed: readonly string[];
    /** Settles when the stream ended, `signal` aborted, or the connection failed. */
    readonly ended: Promise<void>;
  };
}
