import type { CallToolResult, CreateMessageRequestParams, ElicitRequestParams, LoggingLevel } from '@modelcontextprotocol/client';
import { foldedIntoFullQueue } from './guards/event-queue';

/**
 * What the upstream asks of the front client during a call: a question to the user
 * (`elicitation/create`), a completion by the client's model (`sampling/createMessage`), or the
 * client's roots (`roots/list`). Each came as a live request (2025 era) or inside an
 * `input_required` result (2026-07-28).
 */
export type UpstreamAsk =
  | { readonly method: 'elicitation/create'; readonly params: ElicitRequestParams }
  | { readonly method: 'sampling/createMessage'; readonly params: CreateMessageRequestParams }
  | { readonly method: 'roots/list' }
  | UpstreamRound;

/**
 * A 2026-07-28 upstream's `input_required` round, whole: its requests under its own keys
 * (`{ method, params }` each, as sent, untrusted). Answered with `{ result: { inputResponses } }`.
 */
export interface UpstreamRound {
  readonly method: 'input_required';
  readonly inputRequests: Readonly<Record<string, unknown>>;
}

/** The answer sent upstream: the front client's result, or a refusal (sent upstream as a JSON-RPC error) saying why. */
export type UpstreamAnswer = { readonly result: Record<string, unknown> } | { readonly refused: string };

/** A request the upstream made during a call (see {@link UpstreamAsk}). */
export interface UpstreamQuestion {
  readonly ask: UpstreamAsk;
  /**
   * Attributed by elimination, not by the request itself: over stdio a request carries nothing
   * naming a call, and it goes to the one call in flight. It may be the upstream's own (a roots
   * request at its startup), so the call is not failed for it.
   */
  readonly guessed?: boolean;
  /** Sends the answer upstream (once; later calls do nothing). */
  respond(answer: UpstreamAnswer): void;
}

/** What "no answer" is for each kind: an elicitation is cancelled, a sampling or roots request refused with `reason`. */
export function withdrawn(ask: UpstreamAsk, reason: string): UpstreamAnswer {
  return ask.method === 'elicitation/create' ? { result: { action: 'cancel' } } : { refused: reason };
}

/** What happens to a forwarded call, in the order the upstream made it happen. */
export type CallEvent =
  | { readonly kind: 'progress'; readonly progress: number; readonly total?: number; readonly message?: string }
  | { readonly kind: 'log'; readonly level: LoggingLevel; readonly data: unknown; readonly logger?: string }
  | { readonly kind: 'question'; readonly question: UpstreamQuestion }
  | { readonly kind: 'done'; readonly result: CallToolResult }
  | { readonly kind: 'failed'; readonly error: Error };

/**
 * One call forwarded upstream, across the front rounds it takes. Its events (progress, a
 * question, the outcome) queue in arrival order and are read one by one by the round that is
 * serving it; its own abort cancels the upstream request (the SDK sends
 * `notifications/cancelled`, or closes a 2026-07-28 response stream). A round {@link attach}es
 * its signal while it serves the call: the front call's cancellation is then the upstream's, at
 * once. Between rounds (a question out to the user) nothing is attached, and the park's own
 * deadline bounds the wait.
 */
export class UpstreamCall {
  private readonly queue: CallEvent[] = [];
  private waiting: ((event: CallEvent) => void) | undefined;
  private readonly controller = new AbortController();
  private detachSignal: (() => void) | undefined;
  private ended = false;
  /** The question asked and not answered yet (it is answered when the next round begins). */
  pending: UpstreamQuestion | undefined;

  constructor(
    /** The upstream tool's name. */
    readonly name: string,
    /** The `progressToken` the upstream request carries (progress is routed by it). */
    readonly progressToken: string
  ) {}

  /** Aborted when the call is cancelled: what the upstream request was sent with. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Whether the call has its outcome (or failed, or was cancelled). */
  get finished(): boolean {
    return this.ended;
  }

  /** Queues an event (events after the outcome are dropped: nothing follows a response). */
  push(event: CallEvent): void {
    if (this.ended) {
      if (event.kind === 'question') event.question.respond(withdrawn(event.question.ask, 'the call it belongs to has ended'));
      return;
    }
    if (event.kind === 'done' || event.kind === 'failed') this.ended = true;
    if (event.kind === 'question') this.pending = event.question;
    const waiter = this.waiting;
    // A flood of progress or log messages the front has not read yet is folded, not kept (see guards/event-queue.ts).
    if (!waiter && foldedIntoFullQueue(this.queue, event)) return;
    if (waiter) {
      this.waiting = undefined;
      waiter(event);
    } else this.queue.push(event);
  }

  /** The next event, in order (the round's driver races it with the round's abort). */
  next(): Promise<CallEvent> {
    const event = this.queue.shift();
    if (event) return Promise.resolve(event);
    return new Promise((resolve) => (this.waiting = resolve));
  }

  /** Answers the pending question (a round that carries the user's answer). */
  answer(answer: UpstreamAnswer): void {
    const question = this.pending;
    this.pending = undefined;
    question?.respond(answer);
  }

  /** Cancels the upstream request now: the pending question is cancelled, the request aborted, the call failed. */
  cancel(reason: Error): void {
    this.detach();
    if (this.pending) this.answer(withdrawn(this.pending.ask, reason.message));
    if (!this.controller.signal.aborted) this.controller.abort(reason);
    this.push({ kind: 'failed', error: reason });
  }

  /** Follows a front round's signal: its abort cancels the call. */
  attach(signal: AbortSignal): void {
    this.detach();
    const onAbort = () => this.cancel(new Error('The call was cancelled by its client.'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    this.detachSignal = () => signal.removeEventListener('abort', onAbort);
  }

  /** Stops following the round's signal (the round ends: the call is parked on a question, or over). */
  detach(): void {
    this.detachSignal?.();
    this.detachSignal = undefined;
  }
}
