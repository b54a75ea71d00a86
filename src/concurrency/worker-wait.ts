/**
 * A wait that another request ends, kept alive in a Cloudflare Worker. workerd cancels a request
 * as hung ("your Worker's code had hung and would never generate a response") when it waits on
 * nothing of its own: no I/O, no timer. A call waiting in line for the mutation lock or a call
 * slot is such a request, since the call ahead of it, another request, is what frees the line.
 * So while it waits it holds a timer of its own; the wait ends as it always does (the holder's
 * release, or its own abort), and the timer is cleared then. Elsewhere nothing is done (a timer
 * would keep a Node process open). Read on first use, never at import.
 */
let inWorker: boolean | undefined;

/** Clears a wait's keep-alive (idempotent). */
export type WaitEnd = () => void;

const NOTHING: WaitEnd = () => undefined;

/** How often the timer of a waiting request fires: it does nothing, only keeps the request's own event pending. */
const TICK_MS = 1000;

/** Starts keeping the current request alive while it waits on another (in a Worker); call the result when the wait ends. */
export function keepWaitAlive(): WaitEnd {
  inWorker ??= (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent === 'Cloudflare-Workers';
  if (!inWorker) return NOTHING;
  const timer = setInterval(() => undefined, TICK_MS);
  return () => clearInterval(timer);
}
