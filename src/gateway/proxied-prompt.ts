import type { Client, GetPromptResult } from '@modelcontextprotocol/client';
import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/client';
import { ToolError } from '../errors';
import type { InputScope } from '../interactive/input-scope';
import { createInputRound, type InputRound } from '../interactive/require-input';
import type { CallContext } from '../types/context';
import { answerOf, planRound } from './forwarded-rounds';
import type { UpstreamRound } from './upstream-call';
import { forwardedCapabilities } from './upstream-wire';

/** What a prompt's front round carries: the upstream's round (its requests) and its `requestState`, signed by the framework with the rest. */
interface PromptState {
  readonly ir: Readonly<Record<string, unknown>>;
  readonly rs?: string;
  readonly cancelled?: readonly string[];
}

/** Rounds a prompt render answers here at once (every request one the front client cannot be asked) before it gives up. */
const MAX_LOCAL_ROUNDS = 8;

/**
 * Renders an upstream prompt through a 2026-07-28 upstream's `input_required` rounds: a round
 * goes to the front client whole (its keys kept), as the front client's own round; the upstream's
 * round and `requestState` travel in the front round's signed state, so nothing waits in the
 * gateway between rounds (a 2026-07-28 round is stateless both sides). The round that carries the
 * answers renders again with them as `inputResponses`. A 2025-era upstream asks live: its
 * questions during a prompt are cancelled (a limit: they have no front round to go to).
 */
export async function renderThroughRounds(
  send: (render: (client: Client) => Promise<unknown>) => Promise<unknown>,
  modern: boolean,
  name: string,
  args: Record<string, string>,
  ctx: CallContext,
  signal: AbortSignal,
  scope: InputScope
): Promise<GetPromptResult | InputRound> {
  const state = scope.state as PromptState | undefined;
  let retry: Record<string, unknown> | undefined =
    state && state.ir && typeof state.ir === 'object'
      ? {
          inputResponses: (
            answerOf({ method: 'input_required', inputRequests: state.ir }, scope, state.cancelled ?? []) as {
              result: Record<string, unknown>;
            }
          ).result.inputResponses,
          ...(typeof state.rs === 'string' ? { requestState: state.rs } : {})
        }
      : undefined;
  const meta =
    modern && ctx.clientCapabilities ? { _meta: { [CLIENT_CAPABILITIES_META_KEY]: forwardedCapabilities(ctx.clientCapabilities) } } : {};
  for (let round = 0; round < MAX_LOCAL_ROUNDS; round++) {
    const answer = (await send((client) =>
      client.getPrompt({ name, arguments: args, ...meta, ...retry } as never, { signal, ...(modern ? { allowInputRequired: true } : {}) })
    )) as GetPromptResult | { resultType: 'input_required'; inputRequests?: Record<string, unknown>; requestState?: string };
    if ((answer as { resultType?: unknown }).resultType !== 'input_required') return answer as GetPromptResult;
    const upstream = answer as { inputRequests?: Record<string, unknown>; requestState?: string };
    const ask: UpstreamRound = { method: 'input_required', inputRequests: { ...upstream.inputRequests } };
    const plan = planRound(ask, ctx);
    if ('now' in plan) {
      retry = {
        inputResponses: (plan.now as { result: Record<string, unknown> }).result.inputResponses,
        ...(upstream.requestState !== undefined ? { requestState: upstream.requestState } : {})
      };
      continue;
    }
    const next: PromptState = {
      ir: ask.inputRequests,
      ...(upstream.requestState !== undefined ? { rs: upstream.requestState } : {}),
      ...(plan.cancelled.length > 0 ? { cancelled: plan.cancelled } : {})
    };
    return createInputRound(plan.requests, next);
  }
  throw new ToolError(`The upstream prompt ${name} kept asking for input the client in front of the gateway cannot give.`);
}
