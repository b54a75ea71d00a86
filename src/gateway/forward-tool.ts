import type { CallToolResult, ClientCapabilities } from '@modelcontextprotocol/client';
import type { InputScope } from '../interactive/input-scope';
import { createInputRound, type InputRound } from '../interactive/require-input';
import { progress, type ProgressUpdate } from '../pipeline/progress';
import type { CallContext } from '../types/context';
import type { ParkedCalls } from './parked-calls';
import type { UpstreamCall, CallEvent } from './upstream-call';
import { answerOf, planRound } from './forwarded-rounds';

/** What a forwarded round's state carries: the id of the parked call it answers, and the keys answered cancel for it. */
interface ForwardState {
  readonly gw: string;
  readonly cancelled?: readonly string[];
}

/** What forwarding a call needs of its gateway. */
export interface ForwardingGateway {
  readonly parked: ParkedCalls;
  /** Starts the call upstream (connecting, or reconnecting, first). */
  start(frontName: string, args: Record<string, unknown>, sessionId?: string, front?: ClientCapabilities): Promise<UpstreamCall>;
  /** The tool asked the front client something: from now on it is listed as interactive. */
  asked?(frontName: string): void;
}

/**
 * The handler of every proxied tool: an interactive generator, so the framework's three
 * mechanisms do the translating. Upstream progress is yielded (the front gets it on its own
 * channel, in order, before the response); an upstream question is returned as a request for
 * input (the framework delivers it in the front client's form: an `input_required` round on
 * 2026-07-28, a live `elicitation/create` on a 2025-era channel), while the upstream call waits
 * parked; the round that carries the answer takes the call back (its signed state names it) and
 * answers the question upstream. The round's signal is the upstream call's while the round
 * serves it: a cancelled front call cancels the upstream one at once.
 */
export async function* forwardCall(
  gateway: ForwardingGateway,
  args: Record<string, unknown>,
  ctx: CallContext,
  signal: AbortSignal,
  scope: InputScope
): AsyncGenerator<ProgressUpdate, CallToolResult | InputRound, undefined> {
  const state = scope.state as ForwardState | undefined;
  let call: UpstreamCall;
  if (state && typeof state.gw === 'string') {
    call = gateway.parked.take(state.gw);
    call.answer(answerOf(call.pending?.ask, scope, Array.isArray(state.cancelled) ? state.cancelled : []));
  } else {
    call = await gateway.start(ctx.tool.name, args, ctx.sessionId, ctx.clientCapabilities);
  }
  call.attach(signal);
  let parked = false;
  try {
    for (;;) {
      const event: CallEvent = await call.next();
      switch (event.kind) {
        case 'progress':
          // As the upstream gave it: its value, its total (or none), its message.
          yield progress(event);
          break;
        case 'log':
          // The front client's level applies (its `logging/setLevel`, or its request's 2026-07-28 `logLevel`).
          ctx.log.message(event.level, event.data, event.logger);
          break;
        case 'question': {
          gateway.asked?.(ctx.tool.name);
          const plan = planRound(event.question.ask, ctx, event.question.guessed);
          // Nothing the front client can be asked: the upstream is told at once (cancel), and goes on.
          if ('now' in plan) {
            call.answer(plan.now);
            break;
          }
          const id = gateway.parked.park(call, ctx.requestSignal);
          parked = true;
          const state: ForwardState = { gw: id, ...(plan.cancelled.length > 0 ? { cancelled: plan.cancelled } : {}) };
          return createInputRound(plan.requests, state);
        }
        case 'done':
          return event.result;
        case 'failed':
          throw event.error;
      }
    }
  } finally {
    call.detach();
    // A round that ends without an outcome or a question (aborted, or its generator closed) ends the upstream call too.
    if (!parked && !call.finished) call.cancel(new Error('The call was cancelled by its client.'));
  }
}
