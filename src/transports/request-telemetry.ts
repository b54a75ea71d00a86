import { PROTOCOL_VERSION_META_KEY, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { context } from '@opentelemetry/api';
import type { RequestTrace, Telemetry } from '../telemetry';
import type { Era } from '../types/core';
import type { CallTrace } from '../types/telemetry';
import { ownValue } from '../wire/own-properties';
import { remoteAddressOf } from './http/connection-facts';
import type { MemberTarget } from './member-methods';

/** What a request names, read from its params (untrusted: strings only). */
export interface RequestTarget {
  readonly target?: string;
  readonly targetKind?: 'tool' | 'prompt';
  readonly uri?: string;
}

/** A protocol handler given its request's telemetry. */
type Handler<A, R> = (request: A, ctx: ServerContext, trace: CallTrace | undefined) => R | Promise<R>;

/**
 * Serves every protocol request of an app inside its server span (one per request, for every
 * method): started before the handler runs, which runs in its context; ended with the answer or
 * the error. Without telemetry the handler is registered as it is.
 */
export class RequestTelemetry {
  constructor(
    private readonly telemetry: Telemetry | undefined,
    private readonly server: Server,
    private readonly era: Era
  ) {}

  /** Whether a request now would get no trace (no telemetry, or nothing listens): what `serve`'s wrapper would conclude too. */
  get idle(): boolean {
    return this.telemetry === undefined || this.telemetry.idle;
  }

  /** Wraps `handler` for `method`; `targetOf` reads what the request names. */
  serve<A, R>(
    method: string,
    targetOf: ((request: A) => RequestTarget) | undefined,
    handler: Handler<A, R>
  ): (request: A, ctx: ServerContext) => R | Promise<R> {
    const telemetry = this.telemetry;
    if (!telemetry) return (request, ctx) => handler(request, ctx, undefined);
    return (request, ctx) => {
      if (telemetry.idle) return handler(request, ctx, undefined);
      const trace = telemetry.start({
        method,
        ...(targetOf ? targetOf(request) : {}),
        meta: ctx.mcpReq._meta as Record<string, unknown> | undefined,
        requestId: ctx.mcpReq.id,
        sessionId: ctx.sessionId,
        protocolVersion: this.versionOf(ctx),
        era: this.era,
        transport: ctx.http ? 'tcp' : 'pipe',
        clientAddress: remoteAddressOf(ctx.http?.req),
        auth: ctx.http?.authInfo,
        httpRequest: ctx.http?.req
      });
      // Nobody records or meters this request: it runs as it would without telemetry.
      if (!trace) return handler(request, ctx, undefined);
      return answered(trace, () => context.with(trace.context, handler, undefined, request, ctx, trace));
    };
  }

  /** The protocol revision the request was sent for (2026-07-28: its envelope; 2025 era: what `initialize` negotiated). */
  private versionOf(ctx: ServerContext): string | undefined {
    const declared = ownValue(ctx.mcpReq.envelope as Record<string, unknown> | undefined, PROTOCOL_VERSION_META_KEY);
    if (typeof declared === 'string') return declared;
    return this.server.getNegotiatedProtocolVersion();
  }
}

/** Runs a handler and ends the request's trace with its outcome. */
function answered<R>(trace: RequestTrace, run: () => R | Promise<R>): Promise<R> {
  let result: R | Promise<R>;
  try {
    result = run();
  } catch (error) {
    trace.finish({ error });
    return Promise.reject(error);
  }
  return Promise.resolve(result).then(
    (value) => {
      trace.finish({ result: value });
      return value;
    },
    (error: unknown) => {
      trace.finish({ error });
      throw error;
    }
  );
}

const NOTHING_NAMED: RequestTarget = Object.freeze({});

/** What a span says a request names (`MEMBER_METHODS`): a tool's or prompt's name, a resource's URI; a completion, nothing. */
export function spanTargetOf(target: MemberTarget | undefined): RequestTarget {
  switch (target?.kind) {
    case 'tool':
    case 'prompt':
      return { target: target.name, targetKind: target.kind };
    case 'resource':
      return { uri: target.uri };
    default:
      return NOTHING_NAMED;
  }
}

/** The resource URI a request's params give (`resources/unsubscribe`). */
export function uriOf(request: { params?: unknown }): RequestTarget {
  const uri = ownValue(request.params as Record<string, unknown> | undefined, 'uri');
  return typeof uri === 'string' ? { uri } : NOTHING_NAMED;
}
