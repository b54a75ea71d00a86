/**
 * The client side of a call's rounds of input (2026-07-28, multi-round-trip requests), written
 * once for every client of the project that drives them by hand: `app.callTool` (and its
 * `asTask` form) and the terminal client's `call --task`. (A plain SDK `Client` has its own
 * loop and is configured with the same cap.) Plain data in, plain data out: nothing here
 * imports the SDK or the framework, so the terminal client, a program apart, may share it.
 */

/** The most rounds of input one call may ask for: the framework refuses a call that asks more. */
export const MAX_INPUT_ROUNDS = 8;

/** An `input_required` result as a client reads it off the wire. */
export interface AskedInput {
  readonly resultType: 'input_required';
  /** The requests to answer, by key (elicitation, sampling, roots). */
  readonly inputRequests?: Readonly<Record<string, unknown>>;
  /** Opaque state the client echoes byte for byte in the next round. */
  readonly requestState?: string;
}

/** How a client makes its rounds: what {@link followInputRounds} is given. */
export interface InputRounds<R> {
  /** The call again, with the state echoed and the answers to the previous round's requests. */
  next(requestState: string | undefined, inputResponses: Record<string, unknown>): Promise<R | AskedInput>;
  /** Answers one round's requests, by the same keys. */
  answer(inputRequests: Readonly<Record<string, unknown>>): Promise<Record<string, unknown>>;
  /** The error thrown when the server still asks after {@link MAX_INPUT_ROUNDS} answered rounds. */
  tooManyRounds?(rounds: number): Error;
}

/** Whether a result asks for input (`resultType: 'input_required'`). */
export function asksForInput(result: unknown): result is AskedInput {
  return typeof result === 'object' && result !== null && (result as { resultType?: unknown }).resultType === 'input_required';
}

/**
 * Follows a call from its first answer to one that asks nothing more: each `input_required`
 * result is answered and the call made again with the echoed state, at most
 * {@link MAX_INPUT_ROUNDS} times. A first answer that asks nothing is passed on with one
 * `then` and no suspended frame (the common case, and a call queued on the server keeps none).
 *
 * @example
 * ```ts
 * const result = await followInputRounds(call(undefined, undefined), {
 *   next: (requestState, inputResponses) => call(requestState, inputResponses),
 *   answer: (requests) => askTheUser(requests)
 * });
 * ```
 */
export function followInputRounds<R>(first: Promise<R | AskedInput>, rounds: InputRounds<R>): Promise<R> {
  return first.then((result) => (asksForInput(result) ? answerUntilDone(result, rounds) : result));
}

async function answerUntilDone<R>(asked: AskedInput, rounds: InputRounds<R>): Promise<R> {
  let result: R | AskedInput = asked;
  for (let answered = 0; asksForInput(result); answered++) {
    if (answered === MAX_INPUT_ROUNDS) {
      throw rounds.tooManyRounds?.(MAX_INPUT_ROUNDS) ?? new Error(`The server still asked for input after ${MAX_INPUT_ROUNDS} rounds.`);
    }
    const inputResponses = await rounds.answer(result.inputRequests ?? {});
    result = await rounds.next(result.requestState, inputResponses);
  }
  return result;
}
