import type { Span } from '@opentelemetry/api';
import { otelApi } from '../telemetry/otel-api';
import { ATTR_QUEUE_DEPTH } from '../telemetry/conventions';
import type { CallTrace } from '../types/telemetry';
import type { CallState } from './call-state';
import type { Step, StepNext } from './compose';
import { named, namedExit, type NamedStep } from './steps/named-step';

/**
 * How a stage shows in a trace, chosen so that a trace says where the time went:
 *
 * - `wait`: from the stage's start until it hands on (`next(state)`): the queue and the mutation
 *   lock (a wait, also recorded as a metric), input validation.
 * - `whole`: the stage and everything inside it, whose spans nest under it; user code (a
 *   middleware, the handler) runs in its context, so the spans a database or HTTP client makes
 *   there nest under it too (given a context manager, e.g. `AsyncLocalStorageContextManager`).
 * - `after`: from the inner stages' result until the stage's own: the presenter.
 */
export type StageShape = 'wait' | 'whole' | 'after';

/** What a traced stage is called and how it is measured. */
export interface StageTrace {
  /** The stage's name (`mcpfusion.stage`): `queue`, `mutation-lock`, `middleware`, `validate-input`, `handler`, `present`. */
  readonly stage: string;
  /** The span's name (`middleware Audit`, `handler billing.refund`). */
  readonly span: string;
  readonly shape: StageShape;
  /** The queue: its depth as the call arrives. */
  readonly depth?: () => number;
}

/**
 * Wraps a step of the chain with its stage span, at compile time (the chain stays data: an app
 * without telemetry has no wrapper at all). At run time a request that is neither recorded nor
 * metered takes the step as it is.
 */
export function traceStage(step: NamedStep, how: StageTrace): NamedStep {
  // A presentation that is only its exit hook stays one (applied where the call finishes), traced inside it.
  if (how.shape === 'after' && step.exit?.value) return namedExit(step.name, { ...step.exit, value: tracedExit(step.exit.value, how) });
  const run = step.run;
  const traced: Step =
    how.shape === 'wait'
      ? (state, next) => (state.trace?.timing ? waitStage(state.trace, how, run, state, next) : run(state, next))
      : how.shape === 'whole'
        ? (state, next) => (state.trace?.recording ? wholeStage(state.trace, how, run, state, next) : run(state, next))
        : (state, next) => (state.trace?.recording ? afterStage(state.trace, how, run, state, next) : run(state, next));
  // An after-only step stays one: its span starts once the rest of the chain has settled.
  return named(step.name, traced, step.afterOnly === true ? { afterOnly: true } : undefined);
}

/** An exit hook's value mapping in its stage span when the request is recorded (the span starts once the rest has settled). */
function tracedExit(value: (state: CallState, value: unknown) => unknown, how: StageTrace): (state: CallState, value: unknown) => unknown {
  return (state, settled) => {
    const trace = state.trace;
    if (!trace?.recording) return value(state, settled);
    const span = trace.stage(how.stage, how.span);
    let out: unknown;
    try {
      out = value(state, settled);
    } catch (error) {
      end(span, error ?? new Error('failed'));
      throw error;
    }
    if (!isThenable(out)) {
      end(span, undefined);
      return out;
    }
    return out.then(
      (presented) => {
        end(span, undefined);
        return presented;
      },
      (error: unknown) => {
        end(span, error ?? new Error('failed'));
        throw error;
      }
    );
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function waitStage(trace: CallTrace, how: StageTrace, run: Step, state: CallState, next: StepNext): Promise<unknown> {
  const started = performance.now();
  const span = trace.recording ? trace.stage(how.stage, how.span) : undefined;
  if (how.depth && span) span.setAttribute(ATTR_QUEUE_DEPTH, how.depth());
  let open = true;
  const close = (error?: unknown): void => {
    if (!open) return;
    open = false;
    trace.waited(how.stage, (performance.now() - started) / 1000);
    if (span) end(span, error);
  };
  return settle(
    () =>
      run(state, () => {
        close();
        return next(state);
      }),
    close
  );
}

function wholeStage(trace: CallTrace, how: StageTrace, run: Step, state: CallState, next: StepNext): Promise<unknown> {
  const span = trace.stage(how.stage, how.span);
  const inside = trace.enter(span);
  return settle(
    () => otelApi().context.with(inside, run, undefined, state, next),
    (error) => {
      trace.leave(inside);
      end(span, error);
    }
  );
}

function afterStage(trace: CallTrace, how: StageTrace, run: Step, state: CallState, next: StepNext): Promise<unknown> {
  let span: Span | undefined;
  return settle(
    () => run(state, (s) => next(s).then((value) => ((span = trace.stage(how.stage, how.span)), value))),
    (error) => {
      if (span) end(span, error);
    }
  );
}

/** Runs a stage and tells `done` how it ended (a synchronous throw included). */
function settle(stage: () => unknown, done: (error?: unknown) => void): Promise<unknown> {
  let result: unknown;
  try {
    result = stage();
  } catch (error) {
    done(error);
    return Promise.reject(error);
  }
  return Promise.resolve(result).then(
    (value) => {
      done();
      return value;
    },
    (error: unknown) => {
      done(error ?? new Error('failed'));
      throw error;
    }
  );
}

function end(span: Span, error: unknown): void {
  if (error !== undefined)
    span.setStatus({ code: otelApi().SpanStatusCode.ERROR, ...(error instanceof Error ? { message: error.message } : {}) });
  span.end();
}
