import { InputDeclinedError } from '../../errors';
import { resume } from '../../interactive/continuation';
import type { ContinuationStore } from '../../interactive/continuation-store';
import type { MutableInputScope } from '../../interactive/input-scope';
import { bindingOf, interactionOf } from './ask.step';
import { named, type NamedStep } from './named-step';

/**
 * Interactive members: opens the echoed continuation (signature, expiry, binding to member,
 * arguments and caller; single use where declared) and reads the answers to the questions it
 * asked. A declined request ends the call here; a missing or invalid answer is asked again
 * (the same request goes back up to the ask step); otherwise the handler runs with the answers
 * in its input scope.
 */
export function openContinuationStep(store: ContinuationStore): NamedStep {
  return named('open-continuation', async (state, next) => {
    const interaction = interactionOf(state);
    // The store may be remote (a shared one): its wait ends with the call, like every other.
    const resumed = await state.aborter.race(resume(store, bindingOf(state), interaction.requestState, interaction.inputResponses));
    if (resumed.kind === 'end') throw new InputDeclinedError(resumed.message);
    interaction.position = resumed.position;
    const scope = state.inputScope as MutableInputScope;
    scope.answers = resumed.position.answers;
    scope.statuses = resumed.position.statuses;
    scope.state = resumed.position.state;
    if (resumed.kind === 'reask') return resumed.round;
    return next();
  });
}
