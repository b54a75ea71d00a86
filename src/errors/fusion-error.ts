/**
 * Stable machine-readable codes carried by every {@link FusionError}.
 * Codes never change meaning once published; new failure kinds get new codes.
 */
export const ErrorCode = {
  /** Misuse found while building the registry at startup (decorators, options). */
  CONFIGURATION: 'CONFIGURATION',
  /** Tool arguments did not pass validation. */
  INVALID_INPUT: 'INVALID_INPUT',
  /** No tool with that name is registered. */
  UNKNOWN_TOOL: 'UNKNOWN_TOOL',
  /**
   * The call tool of a searched catalog (`toolSearch`) named a tool the app does not have: an
   * `isError` result telling the model to search first (the model chose the name, so it is told).
   */
  CALLED_TOOL_NOT_FOUND: 'CALLED_TOOL_NOT_FOUND',
  /** No prompt with that name is registered. */
  UNKNOWN_PROMPT: 'UNKNOWN_PROMPT',
  /** No resource or template matches the URI. */
  UNKNOWN_RESOURCE: 'UNKNOWN_RESOURCE',
  /** A completion names a prompt or resource the app does not have. */
  UNKNOWN_COMPLETION_REF: 'UNKNOWN_COMPLETION_REF',
  /** No task with that id exists for this caller (or it expired). */
  TASK_NOT_FOUND: 'TASK_NOT_FOUND',
  /** The request's params are malformed (answered -32602 with what is wrong). */
  INVALID_PARAMS: 'INVALID_PARAMS',
  /** The live-task limit is reached: the client should retry later. */
  TASK_LIMIT: 'TASK_LIMIT',
  /** A task's run ended with its process (a shutdown, or a restart found it running): the task failed. */
  TASK_INTERRUPTED: 'TASK_INTERRUPTED',
  /** The call queue is full: load is shed, the client should retry later. */
  SERVER_BUSY: 'SERVER_BUSY',
  /** The call was aborted (client cancellation, disconnect, shutdown). */
  CANCELLED: 'CANCELLED',
  /** The call ran longer than its tool's `timeoutMs`. */
  TIMEOUT: 'TIMEOUT',
  /** Middleware called `next()` more than once. */
  NEXT_CALLED_TWICE: 'NEXT_CALLED_TWICE',
  /** A generator yielded a progress value the protocol cannot carry. */
  INVALID_PROGRESS: 'INVALID_PROGRESS',
  /** The tool asked for input but the connection has no way to deliver the request. */
  ELICITATION_UNSUPPORTED: 'ELICITATION_UNSUPPORTED',
  /** The app is closed or closing. */
  APP_CLOSED: 'APP_CLOSED',
  /** A `requestState` echoed by the client failed verification (tampered, expired, or issued for another call). */
  INVALID_REQUEST_STATE: 'INVALID_REQUEST_STATE',
  /** A tool asked for input more times than the round cap allows. */
  INPUT_ROUNDS_EXCEEDED: 'INPUT_ROUNDS_EXCEEDED',
  /** The tool needs a client capability the client did not declare. */
  MISSING_CLIENT_CAPABILITY: 'MISSING_CLIENT_CAPABILITY',
  /** A tool that is not `@Interactive()` returned a request for input. */
  NOT_INTERACTIVE: 'NOT_INTERACTIVE',
  /**
   * A tool with an output class (`output:`) returned something its listed `outputSchema` does not
   * describe (a string, a missing field, a wrong type): answered as an `isError` result naming the
   * tool, the class and what was returned, so that no client rejects the result as malformed.
   */
  OUTPUT_MISMATCH: 'OUTPUT_MISMATCH',
  /**
   * The tool ran and its outcome is decided, but presenting the result did not finish within the
   * app's `presenterTimeoutMs`: an `isError` result saying so (the tool's effect stands; a task
   * completes with it, an exactly-once round records it).
   */
  PRESENTATION_FAILED: 'PRESENTATION_FAILED',
  /** The user declined or cancelled a request for input; nothing was done. */
  INPUT_DECLINED: 'INPUT_DECLINED',
  /** The caller's token does not grant a scope the member requires; nothing of the call ran. */
  INSUFFICIENT_SCOPE: 'INSUFFICIENT_SCOPE',
  /** A mutation's lock-key function threw, or gave something that is not a list of keys; nothing was run. */
  LOCK_KEY: 'LOCK_KEY',
  /**
   * An upstream behind a gateway failed the call or broke one of the gateway's bounds (it closed or
   * crashed mid-call, sent more than the gateway keeps, or was disconnected as hostile); the
   * message names the upstream and what it did. The gateway and its other upstreams are unaffected.
   */
  UPSTREAM_FAILED: 'UPSTREAM_FAILED',
  /** A failure meant for the agent, raised by application code with `ToolError`: its message is always sent. */
  TOOL_ERROR: 'TOOL_ERROR',
  /** An unexpected failure whose message was masked (`maskErrors`); `reference` is in the server's log. */
  INTERNAL: 'INTERNAL'
} as const;

/** One of the values of {@link ErrorCode}. */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * The one base class of every error the framework raises. `code` is stable;
 * `message` says what went wrong and, where there is one, the fix.
 */
export class FusionError extends Error {
  /** `message` says what went wrong and the fix; `options.cause` keeps the underlying error (never sent). */
  constructor(
    /** What kind of failure this is: one of {@link ErrorCode}, stable across releases. */
    readonly code: ErrorCodeValue,
    message: string,
    options?: { cause?: unknown }
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}
