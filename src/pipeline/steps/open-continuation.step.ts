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
 * in its input scope. For an exactly-once member the state is claimed for its round: a re-issue
 * of a round that has an outcome gets it (the handler does not run), one whose first attempt is
 * still running waits for it (until that attempt ends, however it ends), and this attempt owns
 * the claim from the moment it is made (`CallState.own`): the engine records its outcome, or
 * gives the round back, when it finishes the call.
 */
export function openContinuationStep(store: ContinuationStore): NamedStep {
  return named('open-continuation', async (state, next) => {
    const interaction = interactionOf(state);
    // The store may be remote (a shared one): its waits end with the call, like every other. An
    // exactly-once round waits there for a running attempt of the same round (on any instance).
    // Not raced here: a claim the store made must reach this call, whatever happened meanwhile.
    const binding = bindingOf(state);
    const resumed = await resume(store, binding, interaction.requestState, interaction.inputResponses, state.aborter);
    // A re-issue of a round that has its outcome: that outcome, and nothing runs.
    if (resumed.kind === 'replay') return resumed.outcome;
    if (resumed.kind === 'end') throw new InputDeclinedError(resumed.message);
    if (resumed.claimed) {
      // This attempt owns the round: it runs to its end even if its request goes away (the client
      // re-issues it and waits for this outcome); timeouts and shutdown still end it. A call
      // aborted while it claimed runs nothing (the next stage sees the abort): the round is given back.
      state.own(resumed.claimed);
      state.aborter.detach();
    }
    interaction.position = resumed.position;
    state.trace?.inputRound(resumed.position.round + 1, resumed.position.trace);
    const scope = state.inputScope as MutableInputScope;
    scope.answers = resumed.position.answers;
    scope.statuses = resumed.position.statuses;
    scope.state = resumed.position.state;
    if (resumed.kind === 'reask') return resumed.round;
    return next(state);
  });
}
