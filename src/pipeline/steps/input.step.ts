import { InvalidInputError } from '../../errors';
import { validateInput } from '../../schema/input-validator';
import { named, type NamedStep } from './named-step';

/** Validates the raw arguments against the input class; the handler never sees invalid input. */
export function inputStep(): NamedStep {
  return named('input', async (state, next) => {
    const { descriptor } = state.tool;
    const result = await validateInput(descriptor.inputType, state.extra.arguments);
    if (result.violations) throw new InvalidInputError(descriptor.name, result.violations);
    state.input = result.value;
    return next();
  });
}
