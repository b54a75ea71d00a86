import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import type { UpstreamCall, UpstreamRound } from './upstream-call';

/** What a 2026-07-28 upstream answers with `allowInputRequired`: the plain result, or a round it needs answered. */
type Round = { resultType: 'input_required'; inputRequests?: Record<string, unknown>; requestState?: string };
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
  let retry: { inputResponses: Record<string, unknown>; requestState?: string } | undefined;
  for (;;) {
    const answer = (await client.callTool({ ...params, ...retry } as never, {
      signal: call.signal,
      timeout,
      allowInputRequired: true
    })) as unknown as Answer;
    if (!isRound(answer)) return answer;
    const round: UpstreamRound = { method: 'input_required', inputRequests: { ...answer.inputRequests } };
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
    retry = { inputResponses: responses, ...(answer.requestState !== undefined ? { requestState: answer.requestState } : {}) };
  }
}
