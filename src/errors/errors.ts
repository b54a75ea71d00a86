import { ErrorCode, FusionError } from './fusion-error';

/** Raised at startup when decorators or app options are misused. Names the class and method and says the fix. */
export class ConfigurationError extends FusionError {
  /** `message` names the class and member at fault and says the fix. */
  constructor(message: string) {
    super(ErrorCode.CONFIGURATION, message);
  }
}

/** One failed constraint of the tool input, by property path (`address.zip`, `items.0.qty`). */
export interface Violation {
  /** The property path (`address.zip`, `items.0.qty`); empty for the arguments object itself. */
  readonly path: string;
  /** What the constraint requires, as its validator says it. */
  readonly message: string;
}

/** Tool arguments failed validation; `violations` lists every failed constraint. */
export class InvalidInputError extends FusionError {
  /** The message names the tool and lists every violation, one per line. */
  constructor(
    /** The tool whose arguments failed. */
    readonly toolName: string,
    /** Every failed constraint. */
    readonly violations: readonly Violation[]
  ) {
    super(
      ErrorCode.INVALID_INPUT,
      `Invalid arguments for tool ${toolName}:\n` + violations.map((v) => `- ${v.path || '(arguments)'}: ${v.message}`).join('\n')
    );
  }
}

/** No tool is registered under the requested name. */
export class UnknownToolError extends FusionError {
  /** The message is `Unknown tool: <name>`. */
  constructor(
    /** The name asked for. */
    readonly toolName: string
  ) {
    super(ErrorCode.UNKNOWN_TOOL, `Unknown tool: ${toolName}`);
  }
}

/**
 * The call tool of a searched catalog (`toolSearch`) named a tool the app does not have. Unlike
 * an unknown name in `tools/call` (a JSON-RPC error for the client), this is the model's choice,
 * so it is an `isError` result the model reads, saying how to find the right name.
 */
export class CalledToolNotFoundError extends FusionError {
  /** The message names the tool asked for and the search tool to use instead. */
  constructor(
    /** The name asked for. */
    readonly toolName: string,
    searchToolName: string
  ) {
    super(
      ErrorCode.CALLED_TOOL_NOT_FOUND,
      `No tool is named ${JSON.stringify(toolName)}. Find the tool with ${searchToolName} (describe what it should do), then call it by the exact name it gives.`
    );
  }
}

/** The call queue is full; the call was refused without starting. */
export class ServerBusyError extends FusionError {
  /** `queued` is how many calls were already waiting; the message asks the client to retry later. */
  constructor(queued: number) {
    super(ErrorCode.SERVER_BUSY, `Server busy: ${queued} calls are already waiting. Retry later.`);
  }
}

/** The call exceeded its member's `timeoutMs`. `what` names it (`Tool x`, `Prompt y`, `Resource z`); a bare name is a tool's. */
export class TimeoutError extends FusionError {
  /** `what` names the member (`Tool x`, `Prompt y`, `Resource z`; a bare name is a tool's); `timeoutMs` is the limit it ran past. */
  constructor(what: string, timeoutMs: number) {
    super(
      ErrorCode.TIMEOUT,
      `${/^(Tool|Prompt|Resource|Completion) /.test(what) ? what : `Tool ${what}`} timed out after ${timeoutMs} ms and was stopped.`
    );
  }
}

/** Middleware called `next()` twice. */
export class NextCalledTwiceError extends FusionError {
  /** The message tells the middleware author to call `next()` at most once. */
  constructor() {
    super(ErrorCode.NEXT_CALLED_TWICE, 'next() called more than once in one middleware; call it at most once.');
  }
}

/** A progress value the protocol cannot carry (not finite, or outside 0–100). */
export class InvalidProgressError extends FusionError {
  /** `value` is the progress yielded, shown in the message. */
  constructor(value: unknown) {
    super(ErrorCode.INVALID_PROGRESS, `progress(${String(value)}) is invalid: progress is a finite percentage from 0 to 100.`);
  }
}

/**
 * The caller's token lacks scopes the member requires (declared with `scopes`): the call was
 * refused before anything of its chain ran. Over HTTP the endpoint answers 403 with an
 * `insufficient_scope` challenge before the request reaches the chain; this is the same
 * refusal where there is no HTTP status to give (the test harness, a gate of your own).
 */
export class InsufficientScopeError extends FusionError {
  /** The message names the member and the missing scopes, and says nothing was run. */
  constructor(
    /** The member refused (`Tool x`, `Prompt y`, `Resource z`). */
    readonly what: string,
    /** Every scope the member requires. */
    readonly requiredScopes: readonly string[],
    /** The required scopes the token does not grant. */
    readonly missingScopes: readonly string[]
  ) {
    super(
      ErrorCode.INSUFFICIENT_SCOPE,
      `${what} needs the scope${missingScopes.length > 1 ? 's' : ''} ${missingScopes.join(', ')}, which the caller's token does not grant; nothing was run.`
    );
  }
}

/** The app is closing or closed. */
export class AppClosedError extends FusionError {
  /** The message says the app is shutting down and the call was not run. */
  constructor() {
    super(ErrorCode.APP_CLOSED, 'The app is shutting down; the call was not run.');
  }
}

/** The connection cannot deliver a request for input (no live channel, or the client lacks the capability). */
export class ElicitationUnsupportedError extends FusionError {
  /** `reason` says why the request cannot be delivered; it completes the sentence `… but <reason>.` */
  constructor(reason: string) {
    super(ErrorCode.ELICITATION_UNSUPPORTED, `ELICITATION_UNSUPPORTED: this tool needs input from the user, but ${reason}.`);
  }
}

/** An echoed `requestState` failed verification; the handler was not run. */
export class InvalidRequestStateError extends FusionError {
  /** `reason` says what failed (verification, or a state issued for another tool, arguments or caller, or already used). */
  constructor(reason: string) {
    super(ErrorCode.INVALID_REQUEST_STATE, `Invalid or expired requestState: ${reason}`);
  }
}

/** The member asked for input more times than allowed; the handler is not entered again. `what` names it (`Tool x`, `Prompt y`). */
export class InputRoundsExceededError extends FusionError {
  /** `what` names the member (`Tool x`, `Prompt y`); `maxRounds` is the cap it went past. */
  constructor(what: string, maxRounds: number) {
    super(ErrorCode.INPUT_ROUNDS_EXCEEDED, `${what} asked for input more than ${maxRounds} times; the call was ended.`);
  }
}

/** A non-interactive tool returned a request for input. */
export class NotInteractiveError extends FusionError {
  /** `where` names the tool and its method; the message says to add `@Interactive()`. */
  constructor(where: string) {
    super(
      ErrorCode.NOT_INTERACTIVE,
      `${where} returned a request for input but is not marked @Interactive(): add @Interactive() to the method.`
    );
  }
}

/** The tool needs client capabilities the client did not declare (answered as JSON-RPC -32021). */
export class MissingCapabilityError extends FusionError {
  /** `toolName` and `requiredCapabilities` make the default message; pass `message` to replace it. */
  constructor(
    toolName: string,
    /** The capabilities the tool needs (sent as `data.requiredCapabilities`). */
    readonly requiredCapabilities: Record<string, unknown>,
    message = `Tool ${toolName} needs client capabilities the client did not declare: ${Object.keys(requiredCapabilities).join(', ')}.`
  ) {
    super(ErrorCode.MISSING_CLIENT_CAPABILITY, message);
  }
}

/**
 * A tool declared an output class but returned something its listed `outputSchema` does not
 * describe. Real clients (SDK v1 and v2) reject such a result outright (`has an output schema but
 * did not return structured content`), so the tool's result becomes this error instead: every
 * client reads a tool error naming the tool, the class and what was returned.
 */
export class OutputMismatchError extends FusionError {
  /** The message names the tool, its declared output and what it returned, and says how to fix it. */
  constructor(
    toolName: string,
    /** The declared output, as written (`InvoiceView`, `[InvoiceView]`), or `its output schema` when a presenter describes it. */
    readonly output: string,
    /** What the tool returned, described (`a string ("Refund cancelled")`), or the schema's violations, one per problem. */
    readonly returned: string
  ) {
    super(
      ErrorCode.OUTPUT_MISMATCH,
      `Tool ${toolName} declares output ${output} but returned ${returned}. ` +
        `Return a value with every field ${output} declares, or throw a ToolError for a refusal (an error result needs no structured content).`
    );
  }
}

/**
 * The tool ran (its outcome is decided, its effect stands) but its presenter did not finish
 * within the app's `presenterTimeoutMs`: the call answers this as an `isError` result, never as
 * a cancellation.
 */
export class PresentationError extends FusionError {
  /** The message names the tool and the limit, and says that the tool's work was done. */
  constructor(toolName: string, timeoutMs: number) {
    super(
      ErrorCode.PRESENTATION_FAILED,
      `Tool ${toolName} ran, but its presenter did not finish within ${timeoutMs} ms; its work was done and is not undone. ` +
        'Make the presenter faster, or raise presenterTimeoutMs.'
    );
  }
}

/** A request for input was declined or cancelled; the call ended there (an `isError` result for tools, -32600 otherwise). */
export class InputDeclinedError extends FusionError {
  /** `message` says which request was declined or cancelled. */
  constructor(message: string) {
    super(ErrorCode.INPUT_DECLINED, message);
  }
}

/**
 * A failure meant for the agent: throw it from a tool, prompt or resource to say what went
 * wrong and what to do instead. Its message is always sent, also when `maskErrors` hides the
 * messages of every other exception.
 *
 * @example
 * ```ts
 * if (!invoice) throw new ToolError(`Invoice ${id} not found: call billing.list for the ids.`);
 * ```
 */
export class ToolError extends FusionError {
  /**
   * `message` is sent to the agent as written: say what went wrong and what to do instead.
   * `options.cause` stays on the server (it is not sent).
   */
  constructor(message: string, options?: { cause?: unknown }) {
    super(ErrorCode.TOOL_ERROR, message, options);
  }
}

/** What the client sees of an unexpected exception when `maskErrors` is on: a generic text and a reference. */
export class MaskedError extends FusionError {
  /** The message is generic and carries only `reference`. */
  constructor(
    /** The reference the server's log files the original exception under. */
    readonly reference: string
  ) {
    super(ErrorCode.INTERNAL, `Internal error (reference ${reference}). The server's log has the details.`);
  }
}

/**
 * A keyed `@Mutation`'s key function (`serializeOn`) threw, or returned something other than a
 * key or a list of keys (non-empty strings of at most 512 characters, at most 64 of them). The
 * call did not run and held nothing; the function's own exception is the `cause` (it is not sent).
 */
export class LockKeyError extends FusionError {
  /** `problem` says what was wrong with the keys; `options.cause` keeps the key function's own exception (not sent). */
  constructor(
    /** The tool whose keys could not be computed. */
    readonly toolName: string,
    problem: string,
    options?: { cause?: unknown }
  ) {
    super(ErrorCode.LOCK_KEY, `Tool ${toolName}: the keys it serializes on could not be computed (${problem}); nothing was run.`, options);
  }
}
