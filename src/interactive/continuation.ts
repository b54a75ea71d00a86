import { createHash, randomBytes } from 'node:crypto';
import type { CallAbort } from '../concurrency/call-abort';
import { InvalidRequestStateError } from '../errors';
import { validateAnswers } from './answer-validator';
import type { ContinuationStore } from './continuation-store';
import type { InputStatus } from './input-scope';
import { createInputRound, type InputRequest, type InputRound } from './require-input';
import { RoundClaim } from './round-claim';
import { ownRecord, ownValue } from '../wire/own-properties';

export { MAX_INPUT_ROUNDS } from '../wire/input-rounds'; // one cap, shared with the clients that drive the rounds

/** What travels, signed, in `requestState`. */
interface ContinuationPayload {
  readonly v: 2;
  /** tool (or prompt, or resource) name */
  readonly t: string;
  /** digest of the arguments */
  readonly d: string;
  /** the caller, where the app knows it: its keyed digest (`ContinuationStore.bindingTag`), never the identity */
  readonly p: string | null;
  /** rounds of requests made so far */
  readonly r: number;
  /** answers accepted so far */
  readonly a: Record<string, unknown>;
  readonly st: Record<string, InputStatus>;
  /** the requests of the last round (without notes) */
  readonly q: InputRequest[];
  /** the handler's own continuation payload */
  readonly s?: unknown;
  /** the first round's span, as a W3C traceparent (telemetry links every later round to it) */
  readonly tr?: string;
  /** single-use states: the id the store marks used when the state is echoed */
  readonly n?: string;
}

/** Where an interactive call stands before its handler runs: the round, and the answers so far. */
export interface ContinuationPosition {
  readonly round: number;
  readonly answers: Record<string, unknown>;
  readonly statuses: Record<string, InputStatus>;
  readonly state: unknown;
  /** The first round's span (a reference for telemetry's links; carried by the sealed state from round to round). */
  readonly trace?: string;
}

/** What a continuation is bound to. */
export interface ContinuationBinding {
  readonly name: string;
  readonly args: unknown;
  /** The caller (`principalOf`); the sealed state carries only the store's keyed digest of it. */
  readonly principal: string | null;
  /** Each sealed state is honoured once (the member declared `singleUseState`). */
  readonly singleUse?: boolean;
  /** A re-issue of the same round gets the first attempt's outcome (the member declared `exactlyOnce`). */
  readonly exactlyOnce?: boolean;
}

/** The outcome of re-entry processing: run the handler, ask again, end the call, or answer with a re-issued round's outcome. */
export type Resumption =
  | { readonly kind: 'run'; readonly position: ContinuationPosition; readonly claimed?: RoundClaim }
  | { readonly kind: 'reask'; readonly position: ContinuationPosition; readonly round: InputRound; readonly claimed?: RoundClaim }
  | { readonly kind: 'end'; readonly message: string }
  | { readonly kind: 'replay'; readonly outcome: Replayed };

/** A round's recorded outcome, answered again to a re-issue of the round: passed through untouched (it was presented once). */
export class Replayed {
  constructor(readonly outcome: unknown) {}
}

/** A stable digest of the arguments (key order does not matter). */
export function digestArguments(args: unknown): string {
  return createHash('sha256').update(canonicalJson(args)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The caller as the state carries it: the store's keyed digest, so that a token read by anyone
 * who holds it does not say whom it was issued to. A store without `bindingTag` keeps the
 * payload itself and is given the caller in clear (see `ContinuationStore.bindingTag`).
 */
async function principalTag(store: ContinuationStore, principal: string | null): Promise<string | null> {
  if (principal === null) return null;
  return store.bindingTag ? store.bindingTag(principal) : principal;
}

/** Where a first entry stands: nothing asked yet. Maps without a prototype: no name reads an inherited value. */
export function firstEntry(): ContinuationPosition {
  return {
    round: 0,
    answers: Object.create(null) as Record<string, unknown>,
    statuses: Object.create(null) as Record<string, InputStatus>,
    state: undefined
  };
}

/**
 * Opens the echoed state (verifying signature, expiry and binding to name, arguments
 * and caller) and reads the client's answers to the pending requests. `call`, when given, ends
 * the waits (reading the state, waiting for another attempt of an exactly-once round). Answers are
 * untrusted: each is checked against what was asked, and a missing or invalid one is
 * asked again. Keys the server did not ask for are ignored, and so are answers that come
 * without a state: an answer counts only for a request this server made, in this round.
 * Responses are read by own property: `__proto__` and friends never select an answer.
 */
export async function resume(
  store: ContinuationStore,
  binding: ContinuationBinding,
  token: string | undefined,
  responses: Readonly<Record<string, unknown>> | undefined,
  call?: CallAbort
): Promise<Resumption> {
  if (token === undefined) return { kind: 'run', position: firstEntry() };
  // The store may be remote: its read ends with the call. Read apart from the call's abort, so that
  // an abort is never mistaken for a state that failed verification.
  const opening = Promise.resolve()
    .then(() => store.open(token))
    .then(
      (value) => ({ value }),
      (error: unknown) => ({ error })
    );
  const read = call ? await call.race(opening) : await opening;
  if ('error' in read) {
    const { error } = read;
    throw new InvalidRequestStateError(error instanceof Error ? `verification failed (${error.message})` : 'verification failed');
  }
  const payload = read.value as ContinuationPayload;
  if (!payload || payload.v !== 2 || typeof payload.r !== 'number' || !Array.isArray(payload.q))
    throw new InvalidRequestStateError('unrecognized state');
  if (payload.t !== binding.name) throw new InvalidRequestStateError('it was issued for another tool');
  if (payload.d !== digestArguments(binding.args)) throw new InvalidRequestStateError('it was issued for other arguments');
  if (payload.p !== (await principalTag(store, binding.principal))) throw new InvalidRequestStateError('it was issued to another caller');
  if (binding.singleUse && typeof payload.n !== 'string') throw new InvalidRequestStateError('it is not a single-use state');
  let claimed: RoundClaim | undefined;
  if (typeof payload.n === 'string') {
    if (binding.exactlyOnce && store.claim) {
      // The round is this state with these answers (the binding checked tool, arguments and caller above).
      const asked = payload.q.map((request) => [request.key, ownValue(responses, request.key) ?? null]);
      // Not claimed by a call already aborted. A claim the store makes is always returned (never
      // raced away), so its owner gives it back or records it: a re-issue never waits on a claim
      // nobody owns. The store ends its own wait for another attempt when `signal` aborts.
      if (call?.aborted) throw call.error();
      const claim = await store.claim(payload.n, digestArguments({ t: payload.t, d: payload.d, p: payload.p, a: asked }), call?.signal);
      if (claim.kind === 'refused') throw new InvalidRequestStateError('it was already used (each state of this tool is accepted once)');
      if (claim.kind === 'done') {
        const declined = (claim.outcome as { declined?: unknown } | null)?.declined;
        return typeof declined === 'string' ? { kind: 'end', message: declined } : { kind: 'replay', outcome: new Replayed(claim.outcome) };
      }
      claimed = new RoundClaim(store, payload.n);
    } else {
      if (!store.consume) throw new InvalidRequestStateError('single-use state needs a store that can consume it');
      if (!(await store.consume(payload.n)))
        throw new InvalidRequestStateError('it was already used (each state of this tool is accepted once)');
    }
  }

  const position: ContinuationPosition = {
    round: payload.r,
    answers: ownRecord(payload.a),
    statuses: ownRecord<InputStatus>(payload.st),
    state: payload.s,
    ...(typeof payload.tr === 'string' ? { trace: payload.tr } : {})
  };
  const again: InputRequest[] = [];
  for (const request of payload.q) {
    const outcome = readResponse(request, ownValue(responses, request.key), position);
    if (outcome === 'again') again.push(request);
    else if (typeof outcome === 'object') again.push(outcome);
    // A declined request is an error result: the tool did not do what was asked, and an error
    // result is exempt from the tool's output schema.
    else if (outcome !== 'ok') {
      // A declined round's outcome is the decline itself: a re-issue is declined again, never run.
      if (claimed) await store.recordOutcome?.(payload.n as string, { declined: outcome.slice(4) });
      return { kind: 'end', message: outcome.slice(4) };
    }
  }
  return again.length > 0
    ? { kind: 'reask', position, round: createInputRound(again, payload.s), claimed }
    : { kind: 'run', position, claimed };
}

/**
 * Applies one response to `position`. Returns 'ok', 'again' (ask the same), a request to ask
 * with a note, or 'end:<text>' (a declined request ends the call).
 */
function readResponse(
  request: InputRequest,
  raw: unknown,
  position: ContinuationPosition
): 'ok' | 'again' | InputRequest | `end:${string}` {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return 'again';
  const response = {
    action: ownValue(raw, 'action'),
    content: ownValue(raw, 'content'),
    roots: ownValue(raw, 'roots'),
    role: ownValue(raw, 'role')
  };
  const names = request.kind === 'form' ? Object.keys(request.schema?.properties ?? {}) : [request.key];
  if (request.kind === 'form' || request.kind === 'url') {
    if (response.action === 'decline' || response.action === 'cancel') {
      const status: InputStatus = response.action === 'decline' ? 'declined' : 'cancelled';
      for (const name of [...names, request.key]) position.statuses[name] = status;
      if (request.onDecline === 'handler') return 'ok';
      return `end:${request.onDecline ?? `The user ${status} the request for input (${names.join(', ')}); nothing was done.`}`;
    }
    if (response.action !== 'accept') return { ...request, note: 'The previous answer was not understood.' };
  }
  switch (request.kind) {
    case 'url':
      position.answers[request.key] = true;
      break;
    case 'form': {
      const { values, problems } = validateAnswers(request.schema!, response.content ?? {});
      if (problems.length > 0) return { ...request, note: `The previous answer was invalid: ${problems.join('; ')}.` };
      Object.assign(position.answers, values);
      break;
    }
    case 'sampling':
      if (typeof response.role !== 'string' || typeof response.content !== 'object' || response.content === null) return 'again';
      position.answers[request.key] = raw;
      break;
    case 'roots': {
      const roots = response.roots;
      if (
        !Array.isArray(roots) ||
        !roots.every((r) => typeof r === 'object' && r !== null && typeof (r as { uri?: unknown }).uri === 'string')
      ) {
        return 'again';
      }
      position.answers[request.key] = roots;
      break;
    }
  }
  for (const name of [...names, request.key]) position.statuses[name] = 'answered';
  return 'ok';
}

/** Seals the state for the next round. */
export async function seal(
  store: ContinuationStore,
  binding: ContinuationBinding,
  position: ContinuationPosition,
  round: InputRound
): Promise<string> {
  const payload: ContinuationPayload = {
    v: 2,
    t: binding.name,
    d: digestArguments(binding.args),
    p: await principalTag(store, binding.principal),
    r: position.round + 1,
    a: position.answers,
    st: position.statuses,
    q: round.requests.map(({ note: _note, ...request }) => request),
    ...(round.state !== undefined ? { s: round.state } : {}),
    ...(position.trace !== undefined ? { tr: position.trace } : {}),
    ...(binding.singleUse ? { n: randomBytes(16).toString('base64url') } : {})
  };
  return store.seal(payload);
}
