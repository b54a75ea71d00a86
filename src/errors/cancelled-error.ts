import { ErrorCode, FusionError } from './fusion-error';

/** The call was aborted before or while it ran. */
export class CancelledError extends FusionError {
  /** `reason` is the abort reason, kept as `cause`; the message quotes it when it is a string or an error other than an `AbortError`. */
  constructor(reason?: unknown) {
    super(ErrorCode.CANCELLED, cancellationTexts(reason).message, { cause: reason });
  }

  /**
   * A cancellation as the engine records it: no stack trace (it says where the client gave up,
   * which is nowhere in the server's code), so cancelling thousands of queued calls stays cheap.
   * Made without running the Error constructor (whose stack capture is most of a cancellation's
   * cost, even with no frames kept): the same class, code, message, name and cause, and a stack
   * that is its first line, as an Error with `stackTraceLimit = 0` has.
   */
  static of(reason?: unknown): CancelledError {
    const error = Object.create(CancelledError.prototype) as { -readonly [K in keyof CancelledError]: CancelledError[K] };
    const texts = cancellationTexts(reason);
    error.code = ErrorCode.CANCELLED;
    error.message = texts.message;
    // `name` is the prototype's (below): four own fields, all in the object itself.
    error.stack = texts.stack;
    error.cause = reason;
    return error as CancelledError;
  }
}

// What a cancellation made by `CancelledError.of` reads as its name (one made with `new` has its own, as every FusionError).
Object.defineProperty(CancelledError.prototype, 'name', { value: 'CancelledError', writable: true, configurable: true });

/**
 * The message and stack of a cancellation for `reason`. The last string reason's are kept: a
 * client that cancels thousands of queued calls gives them one reason (`'cancelled by the
 * client'`), and each would build the same two strings again.
 */
function cancellationTexts(reason: unknown): CancellationTexts {
  if (typeof reason !== 'string') return textsOf(reason);
  if (reason !== lastReason) {
    lastReason = reason;
    lastTexts = textsOf(reason);
  }
  return lastTexts;
}

interface CancellationTexts {
  readonly message: string;
  readonly stack: string;
}

function textsOf(reason: unknown): CancellationTexts {
  const message = `The call was cancelled${describeReason(reason)}`;
  return { message, stack: `CancelledError: ${message}` };
}

let lastReason = '';
let lastTexts = textsOf('');

function describeReason(reason: unknown): string {
  if (reason === undefined) return '.';
  if (reason instanceof FusionError) return `: ${reason.message}`;
  if (reason instanceof Error && reason.name !== 'AbortError') return `: ${reason.message}`;
  if (typeof reason === 'string') return `: ${reason}`;
  return '.';
}
