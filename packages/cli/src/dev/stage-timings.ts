import { randomBytes } from 'node:crypto';
import {
  trace,
  type Attributes,
  type AttributeValue,
  type Context,
  type Span,
  type SpanContext,
  type SpanOptions,
  type Tracer,
  type TracerProvider
} from '@opentelemetry/api';
import type { DevCallTimings } from '../inspector';

/** The attributes the framework puts on its spans (the OpenTelemetry MCP conventions, and its own stage name). */
const METHOD = 'mcp.method.name';
const TOOL = 'gen_ai.tool.name';
const PROMPT = 'gen_ai.prompt.name';
const URI = 'mcp.resource.uri';
const STAGE = 'mcpfusion.stage';

/**
 * Each call's stage timings, for the inspector's dev panel: a tracer provider, registered as the
 * global one for the dev session, that keeps no span beyond its request. The framework traces each
 * stage of a compiled chain (queue, mutation lock, middleware, validation, handler, presenter) as a
 * span under the request's, reading the global provider on each request; when a request's span
 * ends, its stages' durations go to the listeners. A project that registers a provider of its own
 * (OpenTelemetry's SDK) keeps it: then {@link StageTimings.register} returns false and the panel
 * shows no timings.
 */
export class StageTimings implements TracerProvider {
  private readonly listeners = new Set<(timings: DevCallTimings) => void>();

  /** Registers this provider as the global one; false when one is registered already. */
  register(): boolean {
    return trace.setGlobalTracerProvider(this);
  }

  /** Calls `listener` with each call's stage timings; returns the unsubscribe. */
  on(listener: (timings: DevCallTimings) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  getTracer(): Tracer {
    return {
      startSpan: (name, options, context) => this.start(name, options, context),
      startActiveSpan: () => {
        throw new Error('mcpfusion dev: startActiveSpan is not used by the framework');
      }
    } as Tracer;
  }

  private start(name: string, options: SpanOptions = {}, context?: Context): Span {
    const found = context ? trace.getSpan(context) : undefined;
    const parent = found instanceof TimedSpan ? found : undefined;
    const span = new TimedSpan(name, options.attributes ?? {}, parent, (ended) => this.ended(ended));
    parent?.children.push(span);
    return span;
  }

  /** A request's span ended: its stages, in the order they started, to the listeners. */
  private ended(span: TimedSpan): void {
    if (span.parent || this.listeners.size === 0) return;
    const method = span.attributes[METHOD];
    const member =
      method === 'tools/call'
        ? { kind: 'tool' as const, name: span.attributes[TOOL] }
        : method === 'prompts/get'
          ? { kind: 'prompt' as const, name: span.attributes[PROMPT] }
          : method === 'resources/read'
            ? { kind: 'resource' as const, name: span.attributes[URI] }
            : undefined;
    if (!member || typeof member.name !== 'string') return;
    const stages = span.stages().map((stage) => ({ stage: String(stage.attributes[STAGE]), ms: stage.ms }));
    const timings: DevCallTimings = { kind: member.kind, name: member.name, stages: [{ stage: 'total', ms: span.ms }, ...stages] };
    for (const listener of this.listeners) {
      try {
        listener(timings);
      } catch {
        // a listener's failure is its own
      }
    }
  }
}

/** A span that keeps its attributes, its children and its duration, nothing else. */
class TimedSpan implements Span {
  readonly attributes: Record<string, AttributeValue | undefined>;
  readonly children: TimedSpan[] = [];
  private readonly context: SpanContext = {
    traceId: randomBytes(16).toString('hex'),
    spanId: randomBytes(8).toString('hex'),
    traceFlags: 1
  };
  private readonly started = performance.now();
  ms = 0;
  private done = false;

  constructor(
    private readonly name: string,
    attributes: Attributes,
    readonly parent: TimedSpan | undefined,
    private readonly onEnd: (span: TimedSpan) => void
  ) {
    this.attributes = { ...attributes };
  }

  /** The stage spans under this one, nested ones included, in the order they started. */
  stages(): TimedSpan[] {
    return this.children.flatMap((child) => [...(child.attributes[STAGE] !== undefined ? [child] : []), ...child.stages()]);
  }

  spanContext(): SpanContext {
    return this.context;
  }
  setAttribute(key: string, value: AttributeValue): this {
    this.attributes[key] = value;
    return this;
  }
  setAttributes(attributes: Attributes): this {
    Object.assign(this.attributes, attributes);
    return this;
  }
  addEvent(): this {
    return this;
  }
  addLink(): this {
    return this;
  }
  addLinks(): this {
    return this;
  }
  setStatus(): this {
    return this;
  }
  updateName(): this {
    return this;
  }
  end(): void {
    if (this.done) return;
    this.done = true;
    this.ms = Math.round((performance.now() - this.started) * 100) / 100;
    this.onEnd(this);
  }
  isRecording(): boolean {
    return !this.done;
  }
  recordException(): void {}
  toString(): string {
    return this.name;
  }
}
