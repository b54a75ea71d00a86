import { ErrorCode, FusionError } from './fusion-error';

/**
 * A gateway's upstream failed a call or broke one of the gateway's bounds (code
 * `UPSTREAM_FAILED`): it closed or crashed mid-call, sent a message or a listing larger than the
 * gateway keeps, or was disconnected for sending requests no call made. The message names the
 * upstream and says what happened; the gateway and its other upstreams are unaffected.
 */
export class UpstreamError extends FusionError {
  /** `message` names the upstream and what it did; `options.cause` keeps the underlying error (never sent). */
  constructor(message: string, options?: { cause?: unknown }) {
    super(ErrorCode.UPSTREAM_FAILED, message, options);
  }
}
