/** A call running as a task, as the engine and the chain see it: types only (a leaf of the import graph). */

/** A JSON-RPC error object, as a failed task carries it (made by the error boundary). */
export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** How a task's round ended, as the error boundary maps it: the result (a tool error included), or the failure. */
export type TaskOutcome =
  | { readonly value: Record<string, unknown> }
  | { readonly error: JsonRpcErrorObject }
  /** The round ended because the task was cancelled (its run was aborted): nothing of it completed. */
  | { readonly cancelled: string };

/** A call running as a task: the task-escalation step makes one, the engine settles it when the call ends. */
export interface TaskHandle {
  readonly taskId: string;
  /** The `CreateTaskResult` the request is answered with. */
  readonly created: Record<string, unknown>;
  /** The task's status message from the call's progress. */
  report(message: string): void;
  /** The round's outcome, recorded as the task's next status. */
  settle(outcome: TaskOutcome): Promise<void>;
}
