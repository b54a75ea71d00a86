import { InputRoundsExceededError } from '../../errors';
import { MAX_INPUT_ROUNDS, seal } from '../../interactive/continuation';
import type { ContinuationStore } from '../../interactive/continuation-store';
import { assertDeliverable, toInputRequiredResult } from '../../interactive/input-required';
import { isInputRound } from '../../interactive/require-input';
import type { CallState, Interaction } from '../call-state';
import { named, type NamedStep } from './named-step';

/**
 * Turns a request for input that an interactive member returned into the protocol's
 * input-required result, its continuation sealed into `requestState`. It sits outside the
 * queue and the mutation lock: they are free before anyone is asked, so nothing is held while
 * a human answers. The eight-round cap and the connection's ability to deliver are checked here.
 */
export function askStep(store: ContinuationStore, what: string): NamedStep {
  return named('ask', async (state, next) => {
    const value = await next(state);
    if (!isInputRound(value)) return value;
    const interaction = interactionOf(state);
    if (interaction.position.round >= MAX_INPUT_ROUNDS) throw new InputRoundsExceededError(what, MAX_INPUT_ROUNDS);
    assertDeliverable(value, state.request.inputChannel);
    state.trace?.inputRequested(value.requests.map(kindOf));
    // The first round's span goes into the state: every later round links to it.
    const position = interaction.position.round === 0 ? { ...interaction.position, trace: state.trace?.reference() } : interaction.position;
    const sealed = await state.aborter.race(seal(store, bindingOf(state), position, value));
    return toInputRequiredResult(value, sealed);
  });
}

/** A request for input as telemetry names its kind. */
function kindOf(request: { readonly kind: string }): string {
  return request.kind === 'form' ? 'elicitation' : request.kind === 'url' ? 'elicitation_url' : request.kind;
}

/** What a call's continuation is bound to: the member, the raw arguments, the caller. */
export function bindingOf(state: CallState) {
  return {
    name: state.member.bindingName,
    args: state.args,
    principal: interactionOf(state).principal,
    singleUse: state.member.singleUseState,
    // A task's rounds survive a broken stream by themselves (the client polls): no round to claim there.
    exactlyOnce: state.member.exactlyOnce && state.mode !== 'task'
  };
}

/** The interaction of a call of an interactive member (the engine makes it for every such call before the chain runs). */
export function interactionOf(state: CallState): Interaction {
  const { interaction } = state;
  if (!interaction) throw new TypeError(`${state.member.info.name} is not interactive: its chain has no input steps`);
  return interaction;
}
