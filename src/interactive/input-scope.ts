import { AsyncLocalStorage } from 'node:async_hooks';
import { FusionError, ErrorCode } from '../errors';
import { ownValue } from '../wire/own-properties';

/** How a request for input ended, as the handler sees it. */
export type InputStatus = 'unasked' | 'answered' | 'declined' | 'cancelled';

/** What an interactive call knows of its input so far. */
export interface InputScope {
  /** The answers so far, by field (or URL request) name, validated against their descriptors (`readInputOf`). */
  readonly answers: Readonly<Record<string, unknown>>;
  /** How each request for input ended so far, by name (`inputStatusOf`; absent: not asked yet). */
  readonly statuses: Readonly<Record<string, InputStatus>>;
  /** The continuation payload attached to the last request for input (`options.state`), verified (`readRequestState`). */
  readonly state: unknown;
}

/** The scope as the input step fills it. */
export type MutableInputScope = { -readonly [K in keyof InputScope]: InputScope[K] };

/** A fresh, empty scope for one call. */
export function emptyInputScope(): MutableInputScope {
  return {
    answers: Object.create(null) as Record<string, unknown>,
    statuses: Object.create(null) as Record<string, InputStatus>,
    state: undefined
  };
}

const storage = new AsyncLocalStorage<InputScope>();

/** Runs `fn` with `scope` as the current call's input (only interactive tools get one). */
export function withInputScope<T>(scope: InputScope, fn: () => T): T {
  return storage.run(scope, fn);
}

function current(fn: string): InputScope {
  const scope = storage.getStore();
  if (!scope) {
    throw new FusionError(
      ErrorCode.CONFIGURATION,
      `${fn}() was called outside an @Interactive() tool call: mark the tool @Interactive(), and call ${fn}() from its handler.`
    );
  }
  return scope;
}

/**
 * The answer to field `name` on a re-entered call (validated against the field's
 * descriptor), or `undefined` before it is answered. Answers accumulate across rounds.
 */
export function readInput<T = unknown>(name: string): T | undefined {
  return readInputOf<T>(current('readInput'), name);
}

/** Whether field (or URL request) `name` was answered, declined, cancelled, or not asked yet. */
export function inputStatus(name: string): InputStatus {
  return inputStatusOf(current('inputStatus'), name);
}

/** The continuation payload attached to the last request for input (`options.state`), verified. */
export function readRequestState<T = unknown>(): T | undefined {
  return current('readRequestState').state as T | undefined;
}

/*
 * The same reads of a scope given by hand: a member that takes its scope as a parameter
 * (`ParamKind` `'inputScope'`, a member source's own members) runs outside the ambient scope,
 * so its calls never start the AsyncLocalStorage (whose promise hooks, once on, cost every
 * promise of the process on Node 20 and 22).
 */

/** `readInput` of `scope`. */
export function readInputOf<T = unknown>(scope: InputScope, name: string): T | undefined {
  return ownValue(scope.answers, name) as T | undefined;
}

/** `inputStatus` of `scope`. */
export function inputStatusOf(scope: InputScope, name: string): InputStatus {
  return (ownValue(scope.statuses, name) as InputStatus | undefined) ?? 'unasked';
}
