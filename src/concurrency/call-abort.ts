import { setImmediate as nextTurn } from 'node:timers';
import { CancelledError } from '../errors';
import { abortErrorOf } from './abort';
import type { InLine } from './waiter-list';

/** An object told of a call's abort (a waiter that needs no closure for it). */
export interface AbortListener {
  onCallAbort(error: Error): void;
}

/** {@link CallAbort}'s state bits: it listens to its request's signal now. */
const SUBSCRIBED = 1;
/** It follows its request no more (the call is over, or became a task). */
const DONE = 2;
/** It is aborted (for good). */
const ABORTED = 4;
/** Its outcome is decided: no abort changes it any more. */
const DECIDED = 8;
/** Made by `CallAbort.following`: listens to its signal only while a waiter is registered, and ends with its reason as it is. */
const ONE_WAIT = 16;

/** The options of every subscription (one object, not one per call). */
const ONCE: AddEventListenerOptions = Object.freeze({ once: true });

/** Calls started in this turn of the event loop that have not subscribed to their request's signal yet. */
let unsubscribed: CallAbort[] = [];
let subscribing = false;

/**
 * Subscribes the calls of the last turn that are still running (one pass per turn). Captured at
 * load, so fake timers in a user's tests cannot stop it.
 */
/**
 * Whether subscriptions are batched per turn. Not in a Cloudflare Worker: workerd drops the
 * pending callbacks of a request that has ended, so a turn scheduled by a request answered at
 * once (a list, a JSON answer) may never come, and every call batched behind it would never hear
 * its request's abort (a cancelled call held its mutation lock for good). There each call
 * subscribes at once. Read on first use, never at import.
 */
let batched: boolean | undefined;
function batchedSubscriptions(): boolean {
  return (batched ??= (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent !== 'Cloudflare-Workers');
}

function subscribeLastTurn(): void {
  subscribing = false;
  const calls = unsubscribed;
  unsubscribed = [];
  for (const call of calls) call.subscribe();
}

/**
 * The end of one call: aborted by the client (its request's signal, until the call becomes a
 * task), a timeout, a task's cancel, or the app's shutdown, whichever is first. The framework's
 * own stages wait on it directly (`race`), which costs a field write (a set only for a second
 * waiter at once); the `AbortSignal` handlers and user code see is made on first read, so a
 * call whose handler never reads `ctx.signal` allocates none. Once aborted it stays aborted,
 * and a signal made later starts aborted with the same reason.
 *
 * The request's signal is read at every stage (`aborted`), and listened to only by calls that
 * outlive the turn of the event loop they started in: most calls end within it, and an
 * EventTarget listener costs more than the rest of the call's bookkeeping. A call still
 * running at the next turn subscribes then, so a cancellation reaches a waiting stage within
 * one turn at most.
 */
export class CallAbort implements InLine<CallAbort> {
  /** Its neighbours in the engine's list of calls in flight (its own node there: no set entry per call). */
  prev: CallAbort | undefined = undefined;
  next: CallAbort | undefined = undefined;
  linked = false;
  private controller: AbortController | undefined;
  private abortReason: unknown;
  /** The one waiter a call has at a time in the common case (no Set made for it); more go to `waiters`. */
  private waiter: Waiter | undefined;
  private waiters: Set<Waiter> | undefined;
  private upstream: AbortSignal | undefined;
  private listener: (() => void) | undefined;
  /** What the call is now, as bits (one field, not five: thousands of calls may wait in line): see `SUBSCRIBED` and the others below. */
  private state = 0;

  /** Follows `upstream` (the request's signal): its abort is this call's, as a cancellation. */
  constructor(upstream?: AbortSignal) {
    if (!upstream) return;
    if (upstream.aborted) this.abort(CancelledError.of(upstream.reason));
    else if (!batchedSubscriptions()) {
      this.upstream = upstream;
      this.subscribe();
    } else {
      this.upstream = upstream;
      unsubscribed.push(this);
      if (!subscribing) {
        subscribing = true;
        nextTurn(subscribeLastTurn);
      }
    }
  }

  /**
   * The abort of one wait on `signal` (the public `acquire(signal)` forms of the queue and the
   * lock, which wait as the engine's calls do): it listens to the signal while a waiter is
   * registered and no longer (a granted waiter leaves nothing on the signal; a lock that waits in
   * several lines listens again for the next), so an abort reaches the waiter at once; it ends
   * with the signal's reason when that is a framework error, a `CancelledError` otherwise.
   */
  static following(signal: AbortSignal): CallAbort {
    const call = new CallAbort();
    call.upstream = signal;
    call.state = ONE_WAIT;
    return call;
  }

  /** Whether the call is aborted (the request's signal is read here, subscribed or not). */
  get aborted(): boolean {
    if ((this.state & (ABORTED | SUBSCRIBED)) === 0 && this.upstream?.aborted) this.upstreamAborted();
    return (this.state & ABORTED) !== 0;
  }

  /** Listens to the request's signal from now on (the call outlived its first turn). */
  subscribe(): void {
    const upstream = this.upstream;
    if ((this.state & (DONE | ABORTED)) !== 0 || !upstream) return;
    if (upstream.aborted) return this.upstreamAborted();
    this.state |= SUBSCRIBED;
    // A function, not this object: Node wraps an object listener in an async function, whose promise
    // it then allocates and watches on every dispatch (about three times the rest of a cancellation).
    // Bound, not a closure: no context object per call (thousands may wait in line).
    this.listener ??= this.upstreamAborted.bind(this);
    upstream.addEventListener('abort', this.listener, ONCE);
  }

  /** The call's `AbortSignal` (made on first read). */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.abortReason);
    }
    return this.controller.signal;
  }

  get reason(): unknown {
    return this.abortReason;
  }

  /** The error a wait of this call ends with (valid once aborted). */
  error(): Error {
    return abortErrorOf(this.abortReason);
  }

  /**
   * The call's outcome is decided (its handler returned, or threw a `ToolError`): from now on an
   * abort changes nothing (a cancel, a timeout, the app's shutdown), so what ran is what the call
   * answers, records and settles. What is left (releasing, presenting, flushing) is bounded on its
   * own. A call aborted first stays aborted: its answer is the abort's, and a handler's late
   * result decides nothing.
   */
  decide(): void {
    if (this.aborted) return;
    this.state |= DECIDED;
    this.detach();
  }

  /** Whether the call's outcome is decided (see {@link decide}). */
  get decided(): boolean {
    return (this.state & DECIDED) !== 0;
  }

  abort(reason: unknown): void {
    if ((this.state & (ABORTED | DECIDED)) !== 0) return;
    this.state |= ABORTED;
    this.abortReason = reason;
    this.detach();
    this.controller?.abort(reason);
    const first = this.waiter;
    const waiters = this.waiters;
    if (!first && !waiters) return;
    this.waiter = this.waiters = undefined;
    const error = this.error();
    if (first) tell(first, error);
    if (waiters) for (const waiter of waiters) tell(waiter, error);
  }

  /** Calls `listener` with the abort error when the call is aborted (unless removed first with {@link offAbort}). */
  onAbort(listener: Waiter): void {
    if (this.waiter === undefined && this.waiters === undefined) this.waiter = listener;
    else (this.waiters ??= new Set()).add(listener);
    if ((this.state & (ONE_WAIT | SUBSCRIBED)) === ONE_WAIT) this.subscribe();
  }

  /** Removes a listener added with {@link onAbort} (the wait it served is over). */
  offAbort(listener: Waiter): void {
    if (this.waiter === listener) this.waiter = undefined;
    else this.waiters?.delete(listener);
    if ((this.state & ONE_WAIT) !== 0 && this.waiter === undefined && !this.waiters?.size) this.unsubscribe();
  }

  /**
   * Settles with `promise`, or rejects with the abort error as soon as the call is aborted,
   * whichever is first; nothing stays registered once it settles. With `release` (a slot held
   * around `promise`: the queue's, a lock's), the slot is released as soon as the race is decided,
   * whichever way, and what the release returns is waited for before the race settles (as a
   * `finally` that awaits it would, without an async frame and its promise per call).
   */
  race<T>(promise: Promise<T>, release?: () => void | Promise<void>): Promise<T> {
    if (this.aborted) {
      promise.catch(() => undefined);
      if (release) return new Promise<T>((resolve, reject) => releasing(release, resolve, reject, this.error(), true));
      return Promise.reject(this.error());
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = (error: Error): void => {
        promise.catch(() => undefined);
        if (release) releasing(release, resolve, reject, error, true);
        else reject(error);
      };
      this.onAbort(onAbort);
      promise.then(
        (value) => {
          this.offAbort(onAbort);
          if (release) releasing(release, resolve, reject, value, false);
          else resolve(value);
        },
        (error: unknown) => {
          this.offAbort(onAbort);
          if (release) releasing(release, resolve, reject, error, true);
          else reject(error);
        }
      );
    });
  }

  /** Stops following the request's signal: the call is over, or became a task (which outlives its request). */
  detach(): void {
    this.state |= DONE;
    this.unsubscribe();
    this.upstream = undefined;
  }

  private unsubscribe(): void {
    if ((this.state & SUBSCRIBED) !== 0 && this.listener) this.upstream?.removeEventListener('abort', this.listener);
    this.state &= ~SUBSCRIBED;
  }

  /** The request's signal aborted. */
  private upstreamAborted(): void {
    const upstream = this.upstream;
    // A once listener: the signal has dropped it already, so the end of the call need not.
    this.state &= ~SUBSCRIBED;
    this.abort((this.state & ONE_WAIT) !== 0 ? upstream?.reason : CancelledError.of(upstream?.reason));
  }
}

/** Releases a slot, then settles with `outcome` (after what the release returns); a release that fails is what the race settles with. */
function releasing<T>(
  release: () => void | Promise<void>,
  resolve: (value: T) => void,
  reject: (error: unknown) => void,
  outcome: unknown,
  failed: boolean
): void {
  let after: void | Promise<void>;
  try {
    after = release();
  } catch (error) {
    return reject(error);
  }
  if (after) after.then(() => (failed ? reject(outcome) : resolve(outcome as T)), reject);
  else if (failed) reject(outcome);
  else resolve(outcome as T);
}

/** What {@link CallAbort.onAbort} tells: a function, or an object (a waiter that needs no closure for it). */
type Waiter = ((error: Error) => void) | AbortListener;

function tell(waiter: Waiter, error: Error): void {
  if (typeof waiter === 'function') waiter(error);
  else waiter.onCallAbort(error);
}
