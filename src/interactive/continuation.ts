import { createHash } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { InvalidRequestStateError } from '../errors';
import { validateAnswers, type FormSchema } from './answer-validator';
import type { InputStatus } from './input-scope';
import { createInputRequest, type InputRequest } from './require-input';
import type { ContinuationStore } from './continuation-store';

/** Requests for input one call may make before it is ended: a confused client cannot ping-pong forever. */
export const MAX_INPUT_ROUNDS = 8;

/** The key of the one embedded request of each round. */
export const INPUT_KEY = 'input';

/** The request that was sent, as the state remembers it (so its answer can be checked). */
interface PendingRequest {
  readonly mode: 'form' | 'url';
  readonly message: string;
  readonly schema?: FormSchema;
  readonly url?: string;
  readonly name?: string;
  readonly onDecline?: string;
}

/** What travels, signed, in `requestState`. */
interface ContinuationPayload {
  readonly v: 1;
  /** tool name */
  readonly t: string;
  /** digest of the arguments */
  readonly d: string;
  /** the caller, where the app knows it */
  readonly p: string | null;
  /** requests for input made so far */
  readonly r: number;
  /** answers accepted so far */
  readonly a: Record<string, unknown>;
  readonly st: Record<string, InputStatus>;
  readonly q: PendingRequest;
  /** the handler's own continuation payload */
  readonly s?: unknown;
}

/** Where an interactive call stands before its handler runs. */
export interface ContinuationProgress {
  readonly round: number;
  readonly answers: Record<string, unknown>;
  readonly statuses: Record<string, InputStatus>;
  readonly state: unknown;
}

/** The outcome of re-entry processing: run the handler, ask again, or end the call. */
export type Resumption =
  | { readonly kind: 'run'; readonly progress: ContinuationProgress }
  | { readonly kind: 'reask'; readonly progress: ContinuationProgress; readonly request: InputRequest }
  | { readonly kind: 'end'; readonly result: CallToolResult };

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

const FIRST_ENTRY: ContinuationProgress = Object.freeze({ round: 0, answers: {}, statuses: {}, state: undefined });

/**
 * Opens the echoed state (verifying signature, expiry and binding to tool, arguments
 * and caller) and reads the client's answer to the pending request. Untrusted answers
 * are validated against the schema that was sent: an invalid one is asked again.
 */
export async function resume(
  store: ContinuationStore,
  binding: { tool: string; args: unknown; principal: string | null },
  token: string | undefined,
  responses: Readonly<Record<string, unknown>> | undefined
): Promise<Resumption> {
  if (token === undefined) return { kind: 'run', progress: FIRST_ENTRY };
  let opened: unknown;
  try {
    opened = await store.open(token);
  } catch (error) {
    throw new InvalidRequestStateError(error instanceof Error ? `verification failed (${error.message})` : 'verification failed');
  }
  const payload = opened as ContinuationPayload;
  if (!payload || payload.v !== 1 || typeof payload.r !== 'number' || !payload.q) throw new InvalidRequestStateError('unrecognized state');
  if (payload.t !== binding.tool) throw new InvalidRequestStateError('it was issued for another tool');
  if (payload.d !== digestArguments(binding.args)) throw new InvalidRequestStateError('it was issued for other arguments');
  if (payload.p !== binding.principal) throw new InvalidRequestStateError('it was issued to another caller');

  const progress: ContinuationProgress = { round: payload.r, answers: { ...payload.a }, statuses: { ...payload.st }, state: payload.s };
  const pending = payload.q;
  const again = (note?: string): Resumption => ({ kind: 'reask', progress, request: rebuild(pending, note, payload.s) });
  const response = responses?.[INPUT_KEY] as { action?: unknown; content?: unknown } | undefined;
  if (!response || typeof response !== 'object') return again();

  const names = pending.mode === 'form' ? Object.keys(pending.schema?.properties ?? {}) : [pending.name ?? 'url'];
  if (response.action === 'decline' || response.action === 'cancel') {
    const status: InputStatus = response.action === 'decline' ? 'declined' : 'cancelled';
    for (const name of names) progress.statuses[name] = status;
    if (pending.onDecline === 'handler') return { kind: 'run', progress };
    const text = pending.onDecline ?? `The user ${status} the request for input (${names.join(', ')}); nothing was done.`;
    return { kind: 'end', result: { content: [{ type: 'text', text }] } };
  }
  if (response.action !== 'accept') return again('The previous answer was not understood.');
  if (pending.mode === 'url') {
    progress.answers[names[0]] = true;
    progress.statuses[names[0]] = 'answered';
    return { kind: 'run', progress };
  }
  const { values, problems } = validateAnswers(pending.schema!, response.content ?? {});
  if (problems.length > 0) return again(`The previous answer was invalid: ${problems.join('; ')}.`);
  Object.assign(progress.answers, values);
  for (const name of names) progress.statuses[name] = 'answered';
  return { kind: 'run', progress };
}

function rebuild(pending: PendingRequest, note: string | undefined, state: unknown): InputRequest {
  const options = { state, onDecline: pending.onDecline };
  return pending.mode === 'form'
    ? createInputRequest({ mode: 'form', message: pending.message, schema: pending.schema, options, note })
    : createInputRequest({ mode: 'url', message: pending.message, url: pending.url, name: pending.name, options, note });
}

/** Seals the state for the next round. */
export function seal(
  store: ContinuationStore,
  binding: { tool: string; args: unknown; principal: string | null },
  progress: ContinuationProgress,
  request: InputRequest
): Promise<string> {
  const payload: ContinuationPayload = {
    v: 1,
    t: binding.tool,
    d: digestArguments(binding.args),
    p: binding.principal,
    r: progress.round + 1,
    a: progress.answers,
    st: progress.statuses,
    q: {
      mode: request.mode,
      message: request.message,
      ...(request.schema ? { schema: request.schema } : {}),
      ...(request.url ? { url: request.url, name: request.name } : {}),
      ...(request.options.onDecline !== undefined ? { onDecline: request.options.onDecline } : {})
    },
    ...(request.options.state !== undefined ? { s: request.options.state } : {})
  };
  return store.seal(payload);
}
