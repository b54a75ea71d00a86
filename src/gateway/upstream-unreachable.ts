import { UpstreamError } from '../errors';
import { describeTarget, type ResolvedTarget } from './upstream-target';
import { upstreamFailure } from './upstream-wire';

/** Network failures that say the endpoint is not there (no answer at all), through an error's causes. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET']);

/** Whether a failed request never reached a live upstream (its connection refused or reset). */
export function isUnreachable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE.has(code)) return true;
  }
  return false;
}

/** The innermost reason of a network failure: `fetch failed (ECONNREFUSED)`. */
export function networkReason(error: unknown): string {
  let code: string | undefined;
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const found = (e as { code?: unknown }).code;
    if (typeof found === 'string' && UNREACHABLE.has(found)) code = found;
  }
  return `${(error as Error).message ?? String(error)}${code ? ` (${code})` : ''}`;
}

/** The error a front call gets when its upstream cannot be spoken to (`reason`: why), naming the upstream. */
export function unavailable(target: ResolvedTarget, reason: Error): UpstreamError {
  return new UpstreamError(
    `The upstream MCP server ${describeTarget(target)} is unavailable: ${reason.message}. The gateway reconnects on the next call; call the tool again.`
  );
}

/**
 * What a front call whose upstream call failed gets: the upstream unavailable when its connection
 * closed (`closedBy`) or the upstream could not be reached (then `unreachable` is told, so that the
 * gateway marks it down), else the upstream's own failure of tool `name`.
 */
export function callFailure(
  target: ResolvedTarget,
  name: string,
  error: unknown,
  closedBy: Error | undefined,
  unreachable?: (reason: Error) => void
): Error {
  if (closedBy) return unavailable(target, closedBy);
  if (!isUnreachable(error)) return upstreamFailure(error, name);
  const reason = new Error(networkReason(error));
  unreachable?.(reason);
  return unavailable(target, reason);
}
