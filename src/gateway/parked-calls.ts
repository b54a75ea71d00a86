import { randomBytes } from 'node:crypto';
import { ToolError } from '../errors';
import type { UpstreamCall } from './upstream-call';

/**
 * Forwarded calls waiting for the user's answer to an upstream question, between two front
 * rounds. The front round that asked ends (its queue slot and locks free), and the call waits
 * here under a random id that travels in the round's signed `requestState`; the round that
 * carries the answer takes it out (once: a replayed state finds nothing). A call nobody comes
 * back for is cancelled upstream after `timeoutMs`.
 */
export class ParkedCalls {
  private readonly calls = new Map<string, { call: UpstreamCall; timer: ReturnType<typeof setTimeout>; unfollow?: () => void }>();

  constructor(private readonly timeoutMs: number) {}

  /** How many calls wait now. */
  get size(): number {
    return this.calls.size;
  }

  /**
   * Parks a call; returns the id its next round names. `request` (a 2025-era live request, which
   * spans the rounds of the question) cancels the call upstream at once when it is aborted.
   */
  park(call: UpstreamCall, request?: AbortSignal): string {
    const id = randomBytes(16).toString('base64url');
    const end = (reason: string) => {
      const entry = this.calls.get(id);
      if (!entry) return;
      this.calls.delete(id);
      clearTimeout(entry.timer);
      entry.unfollow?.();
      call.cancel(new Error(reason));
    };
    const timer = setTimeout(() => end('Nobody answered the upstream question in time.'), this.timeoutMs);
    timer.unref?.();
    const entry: { call: UpstreamCall; timer: ReturnType<typeof setTimeout>; unfollow?: () => void } = { call, timer };
    this.calls.set(id, entry);
    if (request) {
      const onAbort = () => end('The call was cancelled by its client while its question was out.');
      if (request.aborted) onAbort();
      else {
        request.addEventListener('abort', onAbort, { once: true });
        entry.unfollow = () => request.removeEventListener('abort', onAbort);
      }
    }
    return id;
  }

  /** Takes a parked call out (its round resumes it); an unknown id is a clear error. */
  take(id: string): UpstreamCall {
    const entry = this.calls.get(id);
    if (!entry) {
      throw new ToolError(
        'The upstream call this answer belongs to is gone (it was answered already, waited too long, or the upstream restarted): call the tool again.'
      );
    }
    this.calls.delete(id);
    clearTimeout(entry.timer);
    entry.unfollow?.();
    if (entry.call.finished) {
      throw new ToolError('The upstream call this answer belongs to has ended (its server closed or cancelled it): call the tool again.');
    }
    return entry.call;
  }

  /** Cancels every parked call (the gateway closes, or its upstream died). */
  cancelAll(reason: Error): void {
    for (const { call, timer, unfollow } of this.calls.values()) {
      clearTimeout(timer);
      unfollow?.();
      call.cancel(reason);
    }
    this.calls.clear();
  }
}
