import type { CallAbort } from './call-abort';
import type { GateWaiter, Release } from './slot-gate';

/**
 * The engine's own way into a queue or a lock: the framework's queue and locks (in process and on
 * Redis) offer it beside the public `acquire(signal)`, under these symbols, and the queue and lock
 * steps choose one acquire function per step when the chain is built (`slot-takers.ts`). Internal:
 * the members are marked `@internal`, and the build strips them from the declarations.
 *
 * A take gives a free slot at once, with no promise made (most calls find one), and otherwise
 * waits on the call's own abort (no `AbortSignal` made for the wait, no event per cancelled
 * waiter); it rejects with the abort error once the call is aborted, and as `acquire` does
 * otherwise (a full queue, a lock that is unavailable).
 */
export const TAKE: unique symbol = Symbol('mcpfusion.take');

/** A keyed lock's take: its keys (sorted, without duplicates) held for one call; see {@link TAKE}. */
export const TAKE_KEYS: unique symbol = Symbol('mcpfusion.take-keys');

/** A slot taken for one call: at once, or a promise of it. */
export type Take<R> = (call: CallAbort) => R | Promise<R>;

/** Keys held for one call: at once, or a promise of them. */
export type TakeKeys<R> = (keys: readonly string[], call: CallAbort) => R | Promise<R>;

/** A queue or lock of the framework's own: it takes a slot for a call as the engine asks. */
export interface EngineSlots<R> {
  [TAKE](call: CallAbort): R | Promise<R>;
}

/** A keyed lock of the framework's own: it holds keys for a call as the engine asks. */
export interface EngineKeys<R> {
  [TAKE_KEYS](keys: readonly string[], call: CallAbort): R | Promise<R>;
}

/** The in-process queue's admission of a call before its chain (see {@link Admission}). */
export const ADMIT: unique symbol = Symbol('mcpfusion.admit');

/**
 * How the engine admits a call before it enters its chain: a free slot at once (nothing made for
 * it), else the call's own waiter put in line, which is granted the slot or refused once the call
 * is aborted (no promise of the slot, no reaction between the abort and the call's end).
 */
export interface Admission {
  /** A free slot now, if there is one. */
  now(): Release | undefined;
  /** Puts `waiter` in line for `call`; throws when it cannot wait (a full queue, an aborted call). */
  wait(waiter: GateWaiter, call: CallAbort): void;
}

/** A queue of the framework's own that admits calls as the engine asks. */
export interface EngineAdmission {
  readonly [ADMIT]: Admission;
}
