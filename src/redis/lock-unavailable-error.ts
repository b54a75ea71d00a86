import { FusionError, ErrorCode } from '../errors';

/** The lock (Redis) could not be reached or answered; the call was not run. */
export class LockUnavailableError extends FusionError {
  /** `cause` is the Redis failure: the message quotes it, and it is kept as `cause` (not sent). */
  constructor(cause: unknown) {
    super(
      ErrorCode.INTERNAL,
      `The mutation lock is unavailable (Redis: ${cause instanceof Error ? cause.message : String(cause)}); nothing was changed. Retry later.`,
      { cause }
    );
  }
}
