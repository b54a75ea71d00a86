/** A call running as a task, as the engine and the chain see it: types only (a leaf of the import graph). */

/** A JSON-RPC error object, as a failed task carries it (made by the error boundary). */
export interface JsonRpcErrorObject {
  /** The JSON-RPC error code (-32602, -32603, …). */
  readonly code: number;
  /** What went wrong, as the client reads it. */
  readonly message: string;
  /** The error's structured details, where it has any. */
  readonly data?: unknown;
}

/**
 * How a call that answered its request early ended, as the error boundary maps it: the result
 * (a tool error included), the failure as a JSON-RPC error object, or `cancelled` when its run was
 * aborted before it completed. What an extension's `answerNow` run is `settled` with (a task's
 * round is settled with it).
 */
export type CallOutcome =
  | {
      /** The call's result (a tool error's `isError` result included). */
      readonly value: Record<string, unknown>;
    }
  | {
      /** The failure, as the JSON-RPC error object the boundary made. */
      readonly error: JsonRpcErrorObject;
    }
  | {
      /** Why the run was aborted (a task's cancel, say) before it completed: nothing of it completed. */
      readonly cancelled: string;
    };

/** How a task's round ended, as the error boundary maps it (see {@link CallOutcome}). */
export type TaskOutcome = CallOutcome;

/** A call running as a task (or any run that answered its request early): the engine settles it when the call ends. */
export interface TaskHandle {
  readonly taskId: string;
  /** The `CreateTaskResult` the request is answered with. */
  readonly created: Record<string, unknown>;
  /** The task's status message from the call's progress. */
  report(message: string): void;
  /** The round's outcome, recorded as the task's next status. */
  settle(outcome: TaskOutcome): Promise<void>;
}
