import type { CreateMessageRequestParams, ElicitRequestParams } from '@modelcontextprotocol/client';
import { MissingCapabilityError, ToolError } from '../errors';
import { readInputOf, inputStatusOf, type InputScope } from '../interactive/input-scope';
import type { FormSchema } from '../interactive/answer-validator';
import type { InputRequest } from '../interactive/require-input';
import type { CallContext } from '../types/context';
import { isPrototypeKey } from '../wire/own-properties';
import { withdrawn, type UpstreamAnswer, type UpstreamAsk } from './upstream-call';

/** The key a single forwarded request (a 2025-era upstream's live one) travels under in the front round. */
export const QUESTION_KEY = 'upstream-question';

/** What to do with an upstream request: ask the front client (these requests; `cancelled` keys answered cancel), or answer upstream now. */
export type RoundPlan =
  { readonly requests: readonly InputRequest[]; readonly cancelled: readonly string[] } | { readonly now: UpstreamAnswer };

/** One upstream request, read: its method and params (a 2026-07-28 round's entry is untrusted). */
type Single = Exclude<UpstreamAsk, { method: 'input_required' }>;

/**
 * The front round for what the upstream asks, in the front client's terms. A question (an
 * elicitation) the front client cannot be asked is cancelled upstream at once and the upstream
 * goes on (its own decision what a cancel means); a sampling or roots request it cannot take
 * fails the call as a tool that `requires` the capability fails (MissingCapabilityError: -32021,
 * naming it), and the upstream call is cancelled. A `guessed` request (over stdio, given to the
 * one call in flight: it may be the upstream's own, as server-everything's roots request 350 ms
 * after it starts) is refused upstream instead, and the call goes on, as the front client's own
 * SDK would refuse it to a server it spoke to directly. A 2026-07-28 round keeps its keys.
 */
export function planRound(ask: UpstreamAsk, ctx: CallContext, guessed = false): RoundPlan {
  const entries: Array<[string, Single]> =
    ask.method === 'input_required'
      ? Object.entries(ask.inputRequests).map(([key, raw]) => [key, readEntry(key, raw)])
      : [[QUESTION_KEY, ask]];
  const requests: InputRequest[] = [];
  const cancelled: string[] = [];
  for (const [key, single] of entries) {
    const missing = missingCapability(ctx, single);
    if (missing && single.method === 'elicitation/create') cancelled.push(key);
    else if (missing && guessed && ask.method !== 'input_required')
      return { now: withdrawn(ask, `The client in front of the gateway did not declare ${missing}.`) };
    else if (missing) throw new MissingCapabilityError(ctx.tool.name, { [single.method === 'roots/list' ? 'roots' : 'sampling']: {} });
    else requests.push(requestOf(key, single));
  }
  if (requests.length > 0) return { requests, cancelled };
  if (ask.method !== 'input_required') return { now: withdrawn(ask, 'The client in front of the gateway cannot be asked.') };
  return { now: { result: { inputResponses: Object.fromEntries(cancelled.map((key) => [key, { action: 'cancel' }])) } } };
}

/** The answer to send upstream, from what the front round carried (checked by the framework already: forms against their schema, sampling results, roots). */
export function answerOf(ask: UpstreamAsk | undefined, scope: InputScope, cancelled: readonly string[] = []): UpstreamAnswer {
  if (!ask) return { result: { action: 'cancel' } };
  if (ask.method !== 'input_required') {
    const answer = answerTo(QUESTION_KEY, ask, scope);
    return answer === undefined ? withdrawn(ask, 'The client in front of the gateway gave no answer.') : { result: answer };
  }
  const inputResponses: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(ask.inputRequests)) {
    // An answer missing is left out: the upstream asks again (the protocol's rule for a partial round).
    const answer = cancelled.includes(key) ? { action: 'cancel' } : answerTo(key, readEntry(key, raw), scope);
    if (answer !== undefined) inputResponses[key] = answer;
  }
  return { result: { inputResponses } };
}

/** The answer under `key`, or undefined when the front round carried none. */
function answerTo(key: string, single: Single, scope: InputScope): Record<string, unknown> | undefined {
  const status = inputStatusOf(scope, key);
  if (single.method === 'sampling/createMessage')
    return status === 'answered' ? readInputOf<Record<string, unknown>>(scope, key) : undefined;
  if (single.method === 'roots/list') return status === 'answered' ? { roots: readInputOf<unknown>(scope, key) } : undefined;
  if (status === 'declined') return { action: 'decline' };
  if (status !== 'answered') return { action: 'cancel' };
  if (single.params.mode === 'url') return { action: 'accept' };
  const fields = Object.keys((single.params.requestedSchema as { properties?: object } | undefined)?.properties ?? {});
  const content: Record<string, unknown> = {};
  for (const field of fields) {
    const value = readInputOf<unknown>(scope, field);
    if (value !== undefined) content[field] = value;
  }
  return { action: 'accept', content };
}

/** One entry of an upstream round, checked enough to be forwarded (the front client's SDK and the framework check the rest). */
function readEntry(key: string, raw: unknown): Single {
  const entry = raw as { method?: unknown; params?: unknown } | null;
  if (key === '' || isPrototypeKey(key) || key === QUESTION_KEY || !entry || typeof entry !== 'object') {
    throw new ToolError(`The upstream server asked for input under a key the gateway cannot forward (${JSON.stringify(key)}).`);
  }
  const params = (entry.params && typeof entry.params === 'object' ? entry.params : {}) as Record<string, unknown>;
  switch (entry.method) {
    case 'elicitation/create':
      return { method: 'elicitation/create', params: params as unknown as ElicitRequestParams };
    case 'sampling/createMessage':
      return { method: 'sampling/createMessage', params: params as unknown as CreateMessageRequestParams };
    case 'roots/list':
      return { method: 'roots/list' };
    default:
      throw new ToolError(`The upstream server asked for ${JSON.stringify(entry.method)}, which the gateway cannot forward.`);
  }
}

/** The front client capability a request needs and the front client did not declare (`{}` elicitation means form, in 2025-11-25). */
function missingCapability(ctx: CallContext, single: Single): string | undefined {
  const capabilities = ctx.clientCapabilities;
  switch (single.method) {
    case 'sampling/createMessage':
      return capabilities?.sampling ? undefined : 'the sampling capability';
    case 'roots/list':
      return capabilities?.roots ? undefined : 'the roots capability';
    case 'elicitation/create': {
      const declared = capabilities?.elicitation as { form?: object; url?: object } | undefined;
      if (!declared) return 'the elicitation capability';
      if (single.params.mode === 'url') return declared.url ? undefined : 'URL elicitation';
      return declared.form !== undefined || Object.keys(declared).length === 0 ? undefined : 'form elicitation';
    }
  }
}

/** The framework's request for one upstream request, under `key`. */
function requestOf(key: string, single: Single): InputRequest {
  if (single.method === 'sampling/createMessage') return { kind: 'sampling', key, sampling: single.params };
  if (single.method === 'roots/list') return { kind: 'roots', key };
  const params = single.params;
  if (params.mode === 'url') return { kind: 'url', key, message: params.message, url: params.url, onDecline: 'handler' };
  const schema = params.requestedSchema as unknown as FormSchema;
  return { kind: 'form', key, message: params.message, schema, onDecline: 'handler' };
}
