import { ErrorCode, FusionError } from './fusion-error';

/**
 * Failures of a request that names something the app does not have, or that carries malformed
 * params: the error boundary answers each with JSON-RPC -32602 (never a tool result).
 */

/** No prompt with that name (`prompts/get`). */
export class UnknownPromptError extends FusionError {
  /** The message is `Unknown prompt: <name>`. */
  constructor(
    /** The name asked for. */
    readonly promptName: string
  ) {
    super(ErrorCode.UNKNOWN_PROMPT, `Unknown prompt: ${promptName}`);
  }
}

/** No resource or template matches the URI (`resources/read`): -32602 with `data.uri`, as the 2026-07-28 spec says. */
export class UnknownResourceError extends FusionError {
  /** The message is `Resource not found: <uri>`. */
  constructor(
    /** The URI asked for. */
    readonly uri: string
  ) {
    super(ErrorCode.UNKNOWN_RESOURCE, `Resource not found: ${uri}`);
  }
}

/** A `completion/complete` whose reference names no prompt or resource of the app. */
export class NothingToCompleteError extends FusionError {
  /** `ref` is the completion request's reference, shown in the message as JSON. */
  constructor(ref: unknown) {
    super(ErrorCode.UNKNOWN_COMPLETION_REF, `Nothing to complete for ${JSON.stringify(ref)}`);
  }
}

/** No task with that id for this caller: another caller's task, an expired one and an unknown id are told apart by no one. */
export class TaskNotFoundError extends FusionError {
  /** The message is the same for every cause, so a caller learns nothing of other callers' tasks. */
  constructor() {
    super(ErrorCode.TASK_NOT_FOUND, 'Failed to retrieve task: Task not found');
  }
}

/** The request's params are malformed; the message says which and how. */
export class InvalidParamsError extends FusionError {
  /** `message` says which param is malformed and how. */
  constructor(message: string) {
    super(ErrorCode.INVALID_PARAMS, message);
  }
}

/**
 * A task limit is reached: the app's (`tasks.maxLiveTasks`), or one caller's quota
 * (`tasks.maxLiveTasksPerCaller`, `tasks.maxWaitingTasksPerCaller`). The call is refused with a
 * tool error naming the limit (retry later, or finish or cancel a task of your own).
 */
export class TaskLimitError extends FusionError {
  /** The message names the limit reached and what the caller can do (retry later, finish or cancel a task). */
  constructor(
    /** The limit reached. */
    readonly limit: number,
    /** Which caller quota it is (absent: the app's `tasks.maxLiveTasks`). */
    readonly quota?: 'maxLiveTasksPerCaller' | 'maxWaitingTasksPerCaller'
  ) {
    super(
      ErrorCode.TASK_LIMIT,
      quota === undefined
        ? `Server busy: ${limit} tasks are already running or waiting. Retry later.`
        : quota === 'maxLiveTasksPerCaller'
          ? `Too many tasks for this caller: ${limit} are already running or waiting (tasks.maxLiveTasksPerCaller). Let one finish or cancel one, then retry.`
          : `Too many tasks waiting for this caller's input: ${limit} are waiting (tasks.maxWaitingTasksPerCaller). Answer or cancel one, then retry.`
    );
  }
}

/** A task's run ended with its process: the server shut down, or a restart found it running. The task fails with this. */
export class TaskInterruptedError extends FusionError {
  /** `message` says how the run ended (shutdown, or found running at a restart). */
  constructor(message: string) {
    super(ErrorCode.TASK_INTERRUPTED, message);
  }
}
