import type { ExitHook } from '../call-state';
import type { Step } from '../compose';

/**
 * What a step that works only on the way out does with what the rest of the chain settled with
 * (`ExitHook`): `value` maps an answer, `error` a failure (each absent: passed on as it is; either
 * may return a promise, or throw). A chain's leading such steps are applied by the engine in the
 * reaction that finishes the call (`CompiledChain.exits`), not each as a promise of its own around the rest.
 */
export type { ExitHook } from '../call-state';

/** A step with the name the chain description shows. */
export interface NamedStep {
  readonly name: string;
  readonly run: Step;
  /**
   * The step does nothing before it calls `next` (its work is on the way out: flushing,
   * presenting, sealing a question). Where every step outside the queue is such a step, the
   * engine lets the call wait for its queue slot before it enters the chain (`CompiledChain.admit`).
   */
  readonly afterOnly?: boolean;
  /** The step is exactly its exit hook around the rest (`run` applies it so): see {@link ExitHook}. */
  readonly exit?: ExitHook;
  /** The step only checks before it calls `next`, and returns what `next` returns as it is: exits may be applied outside it. */
  readonly beforeOnly?: boolean;
}

/** Names a step. */
export function named(name: string, run: Step, how?: { readonly afterOnly: true }): NamedStep {
  return Object.freeze(how ? { name, run, afterOnly: true } : { name, run });
}

/** Names a check made before `next`, whose result is `next`'s as it is (see {@link NamedStep.beforeOnly}). */
export function namedCheck(name: string, run: Step): NamedStep {
  return Object.freeze({ name, run, beforeOnly: true });
}

/** Names a step that is only its exit hook (see {@link ExitHook}); `run` applies the hook around the rest, for a chain composed by hand. */
export function namedExit(name: string, exit: ExitHook): NamedStep {
  const { value, error } = exit;
  const run: Step = (state, next) =>
    next(state).then(
      value && ((settled) => value(state, settled)),
      error && ((failure: unknown) => error(state, failure))
    );
  return Object.freeze({ name, run, afterOnly: true, exit: Object.freeze({ ...exit }) });
}

/** Names a step that does nothing before it calls `next` (see {@link NamedStep.afterOnly}). */
export function namedAfter(name: string, run: Step): NamedStep {
  return named(name, run, { afterOnly: true });
}
