import type { Step } from '../compose';

/** A step with the name the chain description shows. */
export interface NamedStep {
  readonly name: string;
  readonly run: Step;
}

/** Names a step. */
export function named(name: string, run: Step): NamedStep {
  return Object.freeze({ name, run });
}
