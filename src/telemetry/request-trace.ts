import { SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Link, type Span, type SpanContext, type Tracer } from '@opentelemetry/api';
import type { Era } from '../types/core';
import type { CallTrace } from '../types/telemetry';
import {
  ATTR_CANCEL_SOURCE,
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_INPUT_KINDS,
  ATTR_INPUT_ROUND,
  ATTR_LINK_RELATION,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  ATTR_STAGE,
  ATTR_TASK_ID
} from './conventions';
import { ServerBusyError } from '../errors';
import { cancellationSource, errorFacts, type Outcome } from './outcome';
import type { Instruments } from './instruments';
import { referencedSpan, spanReference } from './span-reference';

/**
 * The telemetry of one request: its server span (made by `Telemetry.start`), the stage spans
 * the chain opens under it, its events, and its metrics, recorded when it ends. Every method is
 * cheap when the span is not recorded: the metrics are all that is kept then.
 */
export class RequestTrace implements CallTrace {
  readonly recording: boolean;
  readonly timing: boolean;
  private readonly started = performance.now();
  private readonly parents: Context[] = [];
  private errorType: string | undefined;
  private statusCode: string | undefined;
  private cancelSource: string | undefined;
  private task: { span: Span; context: Context } | undefined;
  /** The request that created the task this request is about (`linkCreator`). */
  private creator: SpanContext | undefined;
  private ended = false;

  constructor(
    readonly span: Span,
    /** The request's context: its span active in it. */
    readonly context: Context,
    private readonly tracer: Tracer,
    private readonly instruments: Instruments,
    /** The low-cardinality attributes its metrics carry. */
    private readonly metricAttributes: Attributes,
    /** The connection's protocol era (how a closed stream is told from a cancel). */
    private readonly era: Era | undefined
  ) {
    this.recording = span.isRecording();
    this.timing = this.recording || instruments.live;
    if (instruments.live) instruments.active.add(1, metricAttributes);
  }

  stage(stage: string, name: string): Span {
    return this.tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes: { [ATTR_STAGE]: stage } }, this.current());
  }

  enter(span: Span): Context {
    const context = trace.setSpan(this.current(), span);
    this.parents.push(context);
    return context;
  }

  leave(context: Context): void {
    const at = this.parents.lastIndexOf(context);
    if (at >= 0) this.parents.splice(at, 1);
  }

  current(): Context {
    return this.parents[this.parents.length - 1] ?? this.task?.context ?? this.context;
  }

  waited(stage: string, seconds: number): void {
    if (this.instruments.live) this.instruments.wait(stage, seconds, this.metricAttributes);
  }

  progress(percent: number, message: string | undefined): void {
    if (!this.recording) return;
    const target = this.task?.span ?? this.span;
    target.addEvent('progress', message === undefined ? { 'mcpfusion.progress.percent': percent } : { 'mcpfusion.progress.percent': percent, 'mcpfusion.progress.message': message });
  }

  inputRound(round: number, first: string | undefined): void {
    if (!this.recording) return;
    this.span.setAttribute(ATTR_INPUT_ROUND, round);
    const linked = round > 1 ? referencedSpan(first) : undefined;
    if (linked) this.span.addLink({ context: linked, attributes: { [ATTR_LINK_RELATION]: 'first_round' } });
  }

  inputRequested(kinds: readonly string[]): void {
    if (this.instruments.live) for (const kind of kinds) this.instruments.inputRounds.add(1, { ...this.metricAttributes, 'mcpfusion.input.kind': kind });
    if (!this.recording) return;
    this.span.setAttribute(ATTR_INPUT_KINDS, [...kinds]);
    this.span.addEvent('input_required', { [ATTR_INPUT_KINDS]: [...kinds] });
  }

  failed(error: unknown, mode: 'request' | 'task'): void {
    const source = cancellationSource(error, mode, this.era);
    if (source) {
      this.cancelSource = source;
      if (this.instruments.live) this.instruments.cancelled.add(1, { ...this.metricAttributes, [ATTR_CANCEL_SOURCE]: source });
      if (this.recording) {
        const target = this.task?.span ?? this.span;
        target.setAttribute(ATTR_CANCEL_SOURCE, source);
        target.addEvent('cancelled', { [ATTR_CANCEL_SOURCE]: source });
      }
    } else if (error instanceof ServerBusyError && this.instruments.live) this.instruments.shed.add(1, this.metricAttributes);
    if (this.recording && !source && error instanceof Error) (this.task?.span ?? this.span).recordException(error);
  }

  becameTask(taskId: string, tool: string): void {
    if (!this.recording) return;
    this.span.setAttribute(ATTR_TASK_ID, taskId);
    const span = this.tracer.startSpan(
      `task ${tool}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: { [ATTR_TASK_ID]: taskId, [ATTR_GEN_AI_TOOL_NAME]: tool },
        links: this.taskLinks()
      },
      this.context
    );
    this.task = { span, context: trace.setSpan(this.context, span) };
  }

  taskEnded(outcome: unknown): void {
    const task = this.task;
    if (!task) return;
    this.task = undefined;
    const settled = outcome as { value?: unknown; error?: unknown; cancelled?: unknown } | undefined;
    const error = settled?.error
      ? errorFacts({ error: settled.error })
      : settled?.cancelled !== undefined
        ? { type: 'cancelled', message: String(settled.cancelled) }
        : errorFacts({ result: settled?.value });
    if (error) {
      task.span.setAttribute(ATTR_ERROR_TYPE, error.type);
      task.span.setStatus({ code: SpanStatusCode.ERROR, ...(error.message ? { message: error.message } : {}) });
    }
    task.span.end();
  }

  linkCreator(reference: string | undefined, taskId: string): void {
    if (!this.recording) return;
    this.span.setAttribute(ATTR_TASK_ID, taskId);
    const creator = referencedSpan(reference);
    if (!creator) return;
    this.creator = creator;
    this.span.addLink({ context: creator, attributes: { [ATTR_LINK_RELATION]: 'created_by' } });
  }

  /** A task's span links to the request that created the task, and to the one that resumed it (a later round). */
  private taskLinks(): Link[] {
    const own: Link = { context: this.span.spanContext(), attributes: { [ATTR_LINK_RELATION]: this.creator ? 'resumed_by' : 'created_by' } };
    return this.creator ? [own, { context: this.creator, attributes: { [ATTR_LINK_RELATION]: 'created_by' } }] : [own];
  }

  reference(): string | undefined {
    return this.recording ? spanReference(this.span.spanContext()) : undefined;
  }

  /** The request is answered (or failed): the span ends and the duration is recorded. Once. */
  finish(outcome: Outcome): void {
    if (this.ended) return;
    this.ended = true;
    const facts = errorFacts(outcome);
    if (facts) {
      this.errorType = facts.type;
      this.statusCode = facts.code;
    }
    if (this.recording) this.endSpan(facts);
    if (!this.instruments.live) return;
    this.instruments.active.add(-1, this.metricAttributes);
    const attributes = this.errorType
      ? { ...this.metricAttributes, [ATTR_ERROR_TYPE]: this.errorType, ...(this.statusCode ? { [ATTR_RPC_RESPONSE_STATUS_CODE]: this.statusCode } : {}) }
      : this.metricAttributes;
    this.instruments.duration.record((performance.now() - this.started) / 1000, attributes);
  }

  private endSpan(facts: ReturnType<typeof errorFacts>): void {
    const span = this.span;
    if (facts) {
      span.setAttribute(ATTR_ERROR_TYPE, facts.type);
      if (facts.code) span.setAttribute(ATTR_RPC_RESPONSE_STATUS_CODE, facts.code);
      span.setStatus({ code: SpanStatusCode.ERROR, ...(facts.message ? { message: facts.message } : {}) });
    }
    if (this.cancelSource && !facts) span.setAttribute(ATTR_ERROR_TYPE, 'cancelled');
    span.end();
  }
}

