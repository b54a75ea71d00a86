import type { CallToolResult, ElicitRequestParams, ElicitResult } from '@modelcontextprotocol/client';
import { inputStatus, readInput, readRequestState } from '../interactive/input-scope';
import { createInputRound, type InputRound } from '../interactive/require-input';
import type { FormSchema } from '../interactive/answer-validator';
import { liveRequestSignalOf } from '../pipeline/call-context-factory';
import { progress, type ProgressUpdate } from '../pipeline/progress';
import type { CallContext } from '../types/context';
import type { ParkedCalls } from './parked-calls';
import type { UpstreamCall, CallEvent } from './upstream-call';

/** The key a forwarded question travels under in the front round (`inputRequests` / `inputResponses`). */
export const QUESTION_KEY = 'upstream-question';

/** What a forwarded round's state carries: the id of the parked call it answers. */
interface ForwardState {
  readonly gw: string;
}

/** What forwarding a call needs of its gateway. */
export interface ForwardingGateway {
  readonly parked: ParkedCalls;
  /** Starts the call upstream (connecting, or reconnecting, first). */
  start(frontName: string, args: Record<string, unknown>, sessionId?: string): Promise<UpstreamCall>;
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
  signal: AbortSignal
): AsyncGenerator<ProgressUpdate, CallToolResult | InputRound, undefined> {
  const state = readRequestState<ForwardState>();
  let call: UpstreamCall;
  if (state && typeof state.gw === 'string') {
    call = gateway.parked.take(state.gw);
    call.answer(answerOf(call.pending?.params));
  } else {
    call = await gateway.start(ctx.tool.name, args, ctx.sessionId);
  }
  call.attach(signal);
  let parked = false;
  try {
    for (;;) {
      const event: CallEvent = await call.next();
      switch (event.kind) {
        case 'progress': {
          const percent = percentOf(event.progress, event.total);
          if (percent !== undefined) yield progress(percent, event.message);
          break;
        }
        case 'question': {
          // A front client that cannot be asked this kind of question: the upstream is told at once (cancel), and goes on.
          if (!canAsk(ctx, event.question.params)) {
            call.answer({ action: 'cancel' });
            break;
          }
          const id = gateway.parked.park(call, liveRequestSignalOf(ctx));
          parked = true;
          return questionRound(event.question.params, id);
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

/** Whether the front client declared the elicitation mode the question needs (`{}` means form, in 2025-11-25). */
function canAsk(ctx: CallContext, params: ElicitRequestParams): boolean {
  const declared = ctx.clientCapabilities?.elicitation as { form?: object; url?: object } | undefined;
  if (!declared) return false;
  if (params.mode === 'url') return declared.url !== undefined;
  return declared.form !== undefined || Object.keys(declared).length === 0;
}

/** The front round that asks an upstream question: the same form (or URL), answered under {@link QUESTION_KEY}. */
function questionRound(params: ElicitRequestParams, id: string): InputRound {
  const state: ForwardState = { gw: id };
  if (params.mode === 'url') {
    return createInputRound([{ kind: 'url', key: QUESTION_KEY, message: params.message, url: params.url, onDecline: 'handler' }], state);
  }
  const schema = params.requestedSchema as unknown as FormSchema;
  return createInputRound([{ kind: 'form', key: QUESTION_KEY, message: params.message, schema, onDecline: 'handler' }], state);
}

/** The answer to send upstream, from what the front round carried (validated against the form by the framework). */
function answerOf(params: ElicitRequestParams | undefined): ElicitResult {
  const status = inputStatus(QUESTION_KEY);
  if (status === 'declined') return { action: 'decline' };
  if (status !== 'answered' || !params) return { action: 'cancel' };
  if (params.mode === 'url') return { action: 'accept' };
  const fields = Object.keys((params.requestedSchema as { properties?: object } | undefined)?.properties ?? {});
  const content: Record<string, string | number | boolean | string[]> = {};
  for (const field of fields) {
    const value = readInput<string | number | boolean | string[]>(field);
    if (value !== undefined) content[field] = value;
  }
  return { action: 'accept', content };
}

/** An upstream progress as the percentage the framework reports (with a total: its share; without: the value, within 0–100). */
function percentOf(value: number, total: number | undefined): number | undefined {
  const percent = total !== undefined && total > 0 ? (value / total) * 100 : value;
  if (!Number.isFinite(percent)) return undefined;
  return Math.min(100, Math.max(0, percent));
}
