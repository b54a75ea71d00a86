import type { Step } from '../compose';

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
}

/** Names a step. */
export function named(name: string, run: Step, how?: { readonly afterOnly: true }): NamedStep {
  return Object.freeze(how ? { name, run, afterOnly: true } : { name, run });
}

/** Names a step that does nothing before it calls `next` (see {@link NamedStep.afterOnly}). */
export function namedAfter(name: string, run: Step): NamedStep {
  return named(name, run, { afterOnly: true });
}
