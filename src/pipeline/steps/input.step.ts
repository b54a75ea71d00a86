import { InvalidInputError } from '../../errors';
import { resume } from '../../interactive/continuation';
import type { ContinuationStore } from '../../interactive/continuation-store';
import type { MutableInputScope } from '../../interactive/input-scope';
import type { InputValidator } from '../../schema/input-validator';
import { EndOfCall } from '../end-of-call';
import { named, type NamedStep } from './named-step';

/**
 * Input handling: validates the raw arguments against the input class and the listed schema
 * (the handler never sees invalid input), and for interactive tools opens the echoed continuation and reads
 * the answers. A declined request ends the call here; an invalid or missing answer is
 * asked again; otherwise the handler runs with the answers in its input scope.
 */
export function inputStep(store: ContinuationStore, validate: InputValidator): NamedStep {
  return named('input', async (state, next) => {
    const { descriptor } = state.tool;
    const result = validate(state.extra.arguments);
    if (result.violations) throw new InvalidInputError(descriptor.name, result.violations);
    state.input = result.value;
    const interaction = state.interaction;
    if (interaction) {
      const binding = {
        name: descriptor.name,
        args: state.extra.arguments,
        principal: interaction.principal,
        singleUse: descriptor.singleUseState
      };
      const resumed = await resume(store, binding, interaction.requestState, interaction.inputResponses);
      if (resumed.kind === 'end') return new EndOfCall(resumed.result);
      interaction.progress = resumed.progress;
      const scope = state.inputScope as MutableInputScope;
      scope.answers = resumed.progress.answers;
      scope.statuses = resumed.progress.statuses;
      scope.state = resumed.progress.state;
      if (resumed.kind === 'reask') return resumed.round;
    }
    return next();
  });
}
