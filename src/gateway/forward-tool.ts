import type { CallToolResult, ElicitRequestParams } from '@modelcontextprotocol/client';
import { inputStatus, readInput, readRequestState } from '../interactive/input-scope';
import { createInputRound, type InputRound } from '../interactive/require-input';
import type { FormSchema } from '../interactive/answer-validator';
import { liveRequestSignalOf } from '../pipeline/call-context-factory';
import { progress, type ProgressUpdate } from '../pipeline/progress';
import type { CallContext } from '../types/context';
import type { ParkedCalls } from './parked-calls';
import { withdrawn, type UpstreamAnswer, type UpstreamAsk, type UpstreamCall, type CallEvent } from './upstream-call';

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
    call.answer(answerOf(call.pending?.ask));
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
        case 'log':
          // The front client's level applies (its `logging/setLevel`, or its request's 2026-07-28 `logLevel`).
          ctx.log.message(event.level, event.data, event.logger);
          break;
        case 'question': {
          // A front client that cannot be asked this: the upstream is told at once (an elicitation cancelled, else refused), and goes on.
          const missing = missingCapability(ctx, event.question.ask);
          if (missing) {
            call.answer(withdrawn(event.question.ask, `The client in front of the gateway did not declare ${missing}.`));
            break;
          }
          const id = gateway.parked.park(call, liveRequestSignalOf(ctx));
          parked = true;
          return questionRound(event.question.ask, id);
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

/** The front client capability an upstream request needs and the front client did not declare (`{}` elicitation means form, in 2025-11-25). */
function missingCapability(ctx: CallContext, ask: UpstreamAsk): string | undefined {
  const capabilities = ctx.clientCapabilities;
  switch (ask.method) {
    case 'sampling/createMessage':
      return capabilities?.sampling ? undefined : 'the sampling capability';
    case 'roots/list':
      return capabilities?.roots ? undefined : 'the roots capability';
    case 'elicitation/create': {
      const declared = capabilities?.elicitation as { form?: object; url?: object } | undefined;
      if (!declared) return 'the elicitation capability';
      if (ask.params.mode === 'url') return declared.url ? undefined : 'URL elicitation';
      return declared.form !== undefined || Object.keys(declared).length === 0 ? undefined : 'form elicitation';
    }
  }
}

/** The front round that forwards an upstream request: the same form, URL, sampling request or roots listing, answered under {@link QUESTION_KEY}. */
function questionRound(ask: UpstreamAsk, id: string): InputRound {
  const state: ForwardState = { gw: id };
  if (ask.method === 'sampling/createMessage')
    return createInputRound([{ kind: 'sampling', key: QUESTION_KEY, sampling: ask.params }], state);
  if (ask.method === 'roots/list') return createInputRound([{ kind: 'roots', key: QUESTION_KEY }], state);
  const params: ElicitRequestParams = ask.params;
  if (params.mode === 'url') {
    return createInputRound([{ kind: 'url', key: QUESTION_KEY, message: params.message, url: params.url, onDecline: 'handler' }], state);
  }
  const schema = params.requestedSchema as unknown as FormSchema;
  return createInputRound([{ kind: 'form', key: QUESTION_KEY, message: params.message, schema, onDecline: 'handler' }], state);
}

/** The answer to send upstream, from what the front round carried (checked by the framework: a form against its schema, a sampling result's role and content, the roots' URIs). */
function answerOf(ask: UpstreamAsk | undefined): UpstreamAnswer {
  if (!ask) return { result: { action: 'cancel' } };
  if (ask.method === 'sampling/createMessage' || ask.method === 'roots/list') {
    const value = inputStatus(QUESTION_KEY) === 'answered' ? readInput<unknown>(QUESTION_KEY) : undefined;
    if (value === undefined) return withdrawn(ask, 'The client in front of the gateway gave no answer.');
    return ask.method === 'roots/list' ? { result: { roots: value } } : { result: value as Record<string, unknown> };
  }
  const status = inputStatus(QUESTION_KEY);
  if (status === 'declined') return { result: { action: 'decline' } };
  if (status !== 'answered') return { result: { action: 'cancel' } };
  const params = ask.params;
  if (params.mode === 'url') return { result: { action: 'accept' } };
  const fields = Object.keys((params.requestedSchema as { properties?: object } | undefined)?.properties ?? {});
  const content: Record<string, string | number | boolean | string[]> = {};
  for (const field of fields) {
    const value = readInput<string | number | boolean | string[]>(field);
    if (value !== undefined) content[field] = value;
  }
  return { result: { action: 'accept', content } };
}

/** An upstream progress as the percentage the framework reports (with a total: its share; without: the value, within 0–100). */
function percentOf(value: number, total: number | undefined): number | undefined {
  const percent = total !== undefined && total > 0 ? (value / total) * 100 : value;
  if (!Number.isFinite(percent)) return undefined;
  return Math.min(100, Math.max(0, percent));
}
