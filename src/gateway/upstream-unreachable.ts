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
