import type { CallState } from './call-state';

/** Who finishes a call once its exits are applied (the engine: the boundary's mapping, the call's end, `then`). */
export interface CallEnd<T> {
  end(state: CallState, failed: boolean, outcome: unknown, then: T): unknown;
}

/**
 * Applies a call's exit hooks (`CompiledMember.exits`: flush, an untraced presentation) to what
 * its chain settled with, innermost first, each given what the one inside it settled with, then
 * hands the outcome to `end`. Runs in the reaction that finishes the call; a hook that returns a
 * promise goes on in that promise's reaction (so a call in flight keeps no promise of theirs).
 */
export function applyExits<T>(
  state: CallState,
  failed: boolean,
  outcome: unknown,
  then: T,
  end: CallEnd<T>,
  from: number = state.member.exits.length
): unknown {
  const exits = state.member.exits;
  for (let i = from - 1; i >= 0; i--) {
    const hook = failed ? exits[i]!.error : exits[i]!.value;
    if (!hook) continue;
    let out: unknown;
    try {
      out = hook(state, outcome);
    } catch (error) {
      failed = true;
      outcome = error;
      continue;
    }
    if (isThenable(out)) {
      return out.then(
        (value) => applyExits(state, false, value, then, end, i),
        (error: unknown) => applyExits(state, true, error, then, end, i)
      );
    }
    failed = false;
    outcome = out;
  }
  return end.end(state, failed, outcome, then);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
