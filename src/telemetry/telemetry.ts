import { ProxyTracerProvider, SpanKind, context, metrics, propagation, trace, type Attributes, type Link, type Tracer, type TracerProvider } from '@opentelemetry/api';
import type { AuthInfo } from '@modelcontextprotocol/server';
import {
  ATTR_CLIENT_ADDRESS,
  ATTR_ENDUSER_ID,
  ATTR_ENDUSER_SCOPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROMPT_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_RESOURCE_URI,
  ATTR_MCP_SESSION_ID,
  ATTR_NETWORK_PROTOCOL_NAME,
  ATTR_NETWORK_TRANSPORT,
  INSTRUMENTATION_SCOPE,
  OPERATION_EXECUTE_TOOL
} from './conventions';
import type { Era } from '../types/core';
import { Instruments, type QueueGauge } from './instruments';
import { META_GETTER, carriesTraceContext } from './meta-carrier';
import { RequestTrace } from './request-trace';
import type { TelemetryOptions } from './telemetry-options';

/** What is known of a request as it arrives (the transport's facts; the material is untrusted). */
export interface RequestStart {
  /** The JSON-RPC method (`tools/call`). */
  readonly method: string;
  /** The tool or prompt it names, where it names one (the span name's target). */
  readonly target?: string;
  readonly targetKind?: 'tool' | 'prompt';
  /** The resource URI of `resources/read` and friends (an attribute, never in the span name: high cardinality). */
  readonly uri?: string;
  /** The request's `params._meta` (trace context: `traceparent`, `tracestate`, `baggage`). */
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly requestId?: string | number;
  readonly sessionId?: string;
  readonly protocolVersion?: string;
  readonly era?: Era;
  /** `tcp` over HTTP, `pipe` over stdio. */
  readonly transport?: 'tcp' | 'pipe';
  readonly clientAddress?: string;
  /** The verified token (its principal and scopes are recorded; the token never is). */
  readonly auth?: AuthInfo;
  /** The HTTP request, for the app's `principalOf` only (never recorded). */
  readonly httpRequest?: Request;
}

/**
 * An app's telemetry (OpenTelemetry API only: the SDK is the application's choice). Starts one
 * SERVER span per MCP request, named and attributed per the MCP semantic conventions, parented
 * on the trace context in `params._meta` (with the ambient context, an HTTP server span say,
 * linked) or else the ambient context; records the conventions' and the framework's metrics.
 */
export class Telemetry {
  private readonly tracer: Tracer;
  private readonly instruments: Instruments;
  /** The global provider (a proxy whose delegate is the no-op until an SDK registers), unless the app was given its own. */
  private readonly global: ProxyTracerProvider | undefined;

  constructor(
    options: TelemetryOptions,
    version: string,
    queue: QueueGauge | undefined,
    /** The caller's principal (the app's `principalOf`), from what the request's start knows. */
    private readonly principalOf: (facts: RequestStart) => string | undefined
  ) {
    // The global provider is a proxy: a tracer taken from it now follows a provider registered later.
    const provider: TracerProvider = options.tracerProvider ?? trace.getTracerProvider();
    this.global = provider instanceof ProxyTracerProvider ? provider : undefined;
    this.tracer = provider.getTracer(INSTRUMENTATION_SCOPE, version);
    this.instruments = new Instruments((options.meterProvider ?? metrics.getMeterProvider()).getMeter(INSTRUMENTATION_SCOPE, version), queue);
  }

  /**
   * Whether nothing listens: no tracer provider registered (the API's no-op) and no meter. A
   * request then gets no trace at all, not even its facts gathered: the cost of telemetry nobody
   * reads is this one look.
   */
  get idle(): boolean {
    return this.global !== undefined && this.global.getDelegate() === NOOP_TRACER_PROVIDER && !this.instruments.live;
  }

  /**
   * Starts a request's span (ended by `RequestTrace.finish`); undefined when nothing would be
   * kept (the span is not recorded and no meter is registered): the request then carries no
   * trace at all, and costs what it would without telemetry but for this look.
   */
  start(facts: RequestStart): RequestTrace | undefined {
    const ambient = context.active();
    const parent = carriesTraceContext(facts.meta) ? propagation.extract(ambient, facts.meta, META_GETTER) : ambient;
    const links = ambientLink(ambient, parent);
    const name = facts.target ? `${facts.method} ${facts.target}` : facts.method;
    const initial: Attributes = { [ATTR_MCP_METHOD_NAME]: facts.method };
    if (facts.target) initial[facts.targetKind === 'prompt' ? ATTR_GEN_AI_PROMPT_NAME : ATTR_GEN_AI_TOOL_NAME] = facts.target;
    const span = this.tracer.startSpan(name, { kind: SpanKind.SERVER, attributes: initial, ...(links ? { links } : {}) }, parent);
    const recording = span.isRecording();
    if (!recording && !this.instruments.live) return undefined;
    if (recording) span.setAttributes(this.spanAttributes(facts));
    const metricAttributes = this.instruments.live ? metricAttributesOf(facts) : EMPTY;
    return new RequestTrace(span, recording ? trace.setSpan(parent, span) : parent, this.tracer, this.instruments, metricAttributes, facts.era);
  }

  private spanAttributes(facts: RequestStart): Attributes {
    const attributes: Attributes = {};
    if (facts.method === 'tools/call') attributes[ATTR_GEN_AI_OPERATION_NAME] = OPERATION_EXECUTE_TOOL;
    if (facts.uri !== undefined) attributes[ATTR_MCP_RESOURCE_URI] = facts.uri;
    if (facts.requestId !== undefined && facts.requestId !== null) attributes[ATTR_JSONRPC_REQUEST_ID] = String(facts.requestId);
    if (facts.sessionId) attributes[ATTR_MCP_SESSION_ID] = facts.sessionId;
    if (facts.protocolVersion) attributes[ATTR_MCP_PROTOCOL_VERSION] = facts.protocolVersion;
    if (facts.transport) {
      attributes[ATTR_NETWORK_TRANSPORT] = facts.transport;
      if (facts.transport === 'tcp') attributes[ATTR_NETWORK_PROTOCOL_NAME] = 'http';
    }
    if (facts.clientAddress) attributes[ATTR_CLIENT_ADDRESS] = facts.clientAddress;
    if (facts.auth) {
      const principal = this.principalOf(facts);
      if (principal) attributes[ATTR_ENDUSER_ID] = principal;
      if (facts.auth.scopes.length > 0) attributes[ATTR_ENDUSER_SCOPE] = facts.auth.scopes.join(' ');
    }
    return attributes;
  }
}

const EMPTY: Attributes = Object.freeze({});

/** The API's no-op tracer provider: what a fresh proxy delegates to. */
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();

/** The metrics' attributes: low cardinality only (no ids, no URIs, no addresses). */
function metricAttributesOf(facts: RequestStart): Attributes {
  const attributes: Attributes = { [ATTR_MCP_METHOD_NAME]: facts.method };
  if (facts.target) attributes[facts.targetKind === 'prompt' ? ATTR_GEN_AI_PROMPT_NAME : ATTR_GEN_AI_TOOL_NAME] = facts.target;
  if (facts.method === 'tools/call') attributes[ATTR_GEN_AI_OPERATION_NAME] = OPERATION_EXECUTE_TOOL;
  if (facts.protocolVersion) attributes[ATTR_MCP_PROTOCOL_VERSION] = facts.protocolVersion;
  if (facts.transport) attributes[ATTR_NETWORK_TRANSPORT] = facts.transport;
  return attributes;
}

/** The ambient span (an HTTP server span, say), linked when the parent came from `_meta` instead (the conventions' advice). */
function ambientLink(ambient: ReturnType<typeof context.active>, parent: ReturnType<typeof context.active>): Link[] | undefined {
  if (ambient === parent) return undefined;
  const around = trace.getSpanContext(ambient);
  const chosen = trace.getSpanContext(parent);
  if (!around || !trace.isSpanContextValid(around) || (chosen && chosen.spanId === around.spanId)) return undefined;
  return [{ context: around }];
}
