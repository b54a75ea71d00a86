import { ErrorCode, FusionError } from '../errors';

/**
 * The Durable Object that holds a Worker's state (`FusionStateObject`) refused an operation or
 * could not be read: its message names the operation, the status and what the object said. As
 * with the Redis lock, nothing the call depended on was done, so the code is `INTERNAL` and the
 * client may retry; the object's own answer is kept in the message for the server's log.
 */
export class StateObjectError extends FusionError {
  /** `message` says what the object answered; `cause` keeps an underlying failure (never sent). */
  constructor(message: string, options?: { cause?: unknown }) {
    super(ErrorCode.INTERNAL, message, options);
  }
}
