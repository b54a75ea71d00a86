import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import type { UpstreamCall, UpstreamRound } from './upstream-call';

/** What a 2026-07-28 upstream answers with `allowInputRequired`: the plain result, or a round it needs answered. */
export type Round = { resultType: 'input_required'; inputRequests?: Record<string, unknown>; requestState?: string };
type Answer = CallToolResult | Round;

function isRound(answer: Answer): answer is Round {
  return (answer as { resultType?: unknown }).resultType === 'input_required';
}

/**
 * A call to a 2026-07-28 upstream, its `input_required` rounds passed through whole: each round
 * (every request of it, under the upstream's own keys) goes to the call as one question, and the
 * front client's answers come back as the next request's `inputResponses`, with the upstream's
 * `requestState` echoed byte for byte (a new request each round, as the protocol wants). So a
 * round that asks for a form, a sampling and the roots at once reaches the front client as one
 * round with the same keys. Ends with the upstream's result; a round the front client did not
 * answer ends the call (the caller fails it).
 */
export async function callThroughRounds(
  client: Client,
  call: UpstreamCall,
  params: { name: string; arguments: Record<string, unknown>; _meta: Record<string, unknown> },
  timeout: number
): Promise<CallToolResult> {
  return throughRounds(
    call,
    async (retry) =>
      (await client.callTool({ ...params, ...retry } as never, {
        signal: call.signal,
        timeout,
        allowInputRequired: true
      })) as unknown as Answer
  ) as Promise<CallToolResult>;
}

/** What a round's retry adds to the call's params: the front client's answers, and the upstream's state echoed. */
export type RoundRetry = { inputResponses: Record<string, unknown>; requestState?: string };

/**
 * The rounds of one upstream call, however it is sent (`send`, with the retry of the round before,
 * or none the first time): each `input_required` round goes to `call` as one question (see
 * {@link callThroughRounds}); any other answer ends the call.
 */
export async function throughRounds<T extends object>(
  call: UpstreamCall,
  send: (retry: RoundRetry | undefined) => Promise<T | Round>
): Promise<T> {
  let retry: RoundRetry | undefined;
  for (;;) {
    const answer = await send(retry);
    if (!isRound(answer as Answer)) return answer as T;
    const round: UpstreamRound = { method: 'input_required', inputRequests: { ...(answer as Round).inputRequests } };
    const responses = await new Promise<Record<string, unknown> | undefined>((resolve) => {
      let answered = false;
      call.push({
        kind: 'question',
        question: {
          ask: round,
          respond: (reply) => {
            if (answered) return;
            answered = true;
            resolve('result' in reply ? (reply.result.inputResponses as Record<string, unknown>) : undefined);
          }
        }
      });
    });
    if (!responses) throw new Error('The round was not answered: the call was cancelled.');
    const { requestState } = answer as Round;
    retry = { inputResponses: responses, ...(requestState !== undefined ? { requestState } : {}) };
  }
}
