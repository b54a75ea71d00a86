import type { MutationLock } from '../../concurrency/fifo-mutex';
import { keysTake } from '../../concurrency/slot-takers';
import { LockKeyError } from '../../errors';
import type { LockKeysFunction } from '../../metadata/types';
import type { CallState } from '../call-state';
import { grantOf } from './mutation-lock.step';
import type { NamedStep } from './named-step';
import { slotStep } from './slot.step';

/** The most keys one call may hold, and the longest key: keys come from untrusted input, and a lock stores them. */
const MAX_KEYS = 64;
const MAX_KEY_LENGTH = 512;

/**
 * Serializes a keyed mutation on its keys: computed from the validated input (so it sits after
 * validate-input), sorted and deduplicated (one canonical order: two multi-key mutations never
 * deadlock), then held (the app shared, each key exclusive) until the rest of the chain ends,
 * released in `finally`. A key function that throws, or gives something that is not a list of
 * keys, fails the call with `LockKeyError` before anything is held. How the keys are taken is
 * chosen here, once (`keysTake`); a lock without keyed methods serializes the call app-wide.
 */
export function keyedLockStep(lock: MutationLock, tool: string, keysOf: LockKeysFunction): NamedStep {
  const take = keysTake(lock);
  return slotStep('keyed-lock', (state) => grantOf(state, take(lockKeys(tool, keysOf, state), state.aborter)));
}

/** The call's keys, checked, sorted and without duplicates. */
export function lockKeys(tool: string, keysOf: LockKeysFunction, state: CallState): readonly string[] {
  let raw: unknown;
  try {
    raw = (keysOf as (input: unknown, ctx: unknown) => unknown)(state.input, state.ctx);
  } catch (error) {
    throw new LockKeyError(tool, 'its key function threw', { cause: error });
  }
  const list: unknown[] = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : [];
  if (list.length === 0) throw new LockKeyError(tool, `its key function returned ${describe(raw)}, not a key or a list of keys`);
  if (list.length > MAX_KEYS)
    throw new LockKeyError(tool, `its key function returned ${list.length} keys; at most ${MAX_KEYS} are allowed`);
  for (const key of list) {
    if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH)
      throw new LockKeyError(tool, `a key must be a non-empty string of at most ${MAX_KEY_LENGTH} characters; got ${describe(key)}`);
  }
  const keys = [...new Set(list as string[])];
  // Code-unit order, the same in every process of a fleet (localeCompare is not).
  return keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value.length === 0 ? 'an empty string' : `a string of ${value.length} characters`;
  if (Array.isArray(value)) return 'an empty list';
  return value === null ? 'null' : typeof value;
}
