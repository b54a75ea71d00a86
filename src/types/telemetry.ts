/**
 * What the chain sees of a request's telemetry (types only; `src/telemetry` implements it).
 * Present on every request of an app with telemetry; `recording` says whether spans are kept
 * (a tracer provider samples this request): stage spans and events are made only then, while
 * metrics are recorded either way.
 */
import type { Context, Span } from '@opentelemetry/api';

/**
 * What an extension may do with a request's telemetry: link the request to an earlier one (a
 * task's later request to the one that created it) by the reference that one gave.
 */
export interface TraceLinks {
  /** Links this request to the request that created `runId` (its stored span reference). */
  linkCreator(reference: string | undefined, runId: string): void;
  /** This request's span as a reference a later request can link to (undefined when not recorded). */
  reference(): string | undefined;
}

export interface CallTrace extends TraceLinks {
  /** Whether the request's span is recorded (spans and events are worth making). */
  readonly recording: boolean;
  /** Whether waits are timed (the span is recorded, or metrics are). */
  readonly timing: boolean;
  /** Starts a stage's span, a child of the innermost open stage (or of the request's span). */
  stage(stage: string, name: string): Span;
  /** Makes `span` the parent of the stages started inside it; returns its context (user code runs in it). */
  enter(span: Span): Context;
  /** Ends what `enter` began. */
  leave(context: Context): void;
  /** The context a stage runs user code in (the innermost open stage's). */
  current(): Context;
  /** A stage waited this long (queue, mutation lock): a metric. */
  waited(stage: string, seconds: number): void;
  /** A progress report the call made (coalesced like the notifications). */
  progress(percent: number, message: string | undefined): void;
  /** This request is round `round` (1-based) of an interactive call; `first` references the first round's span. */
  inputRound(round: number, first: string | undefined): void;
  /** The call asks for input (these kinds) and answers with a request for it. */
  inputRequested(kinds: readonly string[]): void;
  /** The call failed with this (as the error boundary saw it), in this mode. */
  failed(error: unknown, mode: 'request' | 'task'): void;
  /** The call (of `tool`) became a task, or runs a later round of one. */
  becameTask(taskId: string, tool: string): void;
  /** A task's call ended with this outcome (a result or a JSON-RPC error object). */
  taskEnded(outcome: unknown): void;
}
