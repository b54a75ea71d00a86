import { InvalidInputError } from '../../errors';
import type { InputValidator } from '../../schema/input-validator';
import { named, type NamedStep } from './named-step';

/**
 * Validates the raw arguments against the input class and the listed schema: the handler
 * never sees invalid input. A refusal lists every violation by property path.
 */
export function validateInputStep(name: string, validate: InputValidator): NamedStep {
  return named('validate-input', (state, next) => {
    const result = validate(state.args);
    if (result.violations) throw new InvalidInputError(name, result.violations);
    state.input = result.value;
    return next(state);
  });
}
