import { specTypeSchemas, type Server, type ServerContext, type StandardSchemaV1 } from '@modelcontextprotocol/server';
import type { CallTrace } from '../types/telemetry';
import { MEMBER_METHODS, type MemberMethodName } from './member-methods';
import { spanTargetOf, type RequestTelemetry } from './request-telemetry';

/**
 * How a member method's handler is registered on a server (the `MEMBER_METHODS` row: its params
 * schema, its span), apart from what the handler does (`server-factory.ts`).
 */

/** The handler of a method that addresses one member: its params as checked (see `MEMBER_METHODS`). */
export type MemberHandler = (params: Record<string, unknown>, ctx: ServerContext, trace: CallTrace | undefined) => unknown;

/**
 * Registers the handler of a member method as its row in `MEMBER_METHODS` says: its params
 * checked by the spec's own params schema through the SDK's schema form, so that malformed
 * params (`arguments` that is not an object, a prompt argument that is not a string) answer
 * -32602 naming the problem (the SDK's plain form answers them -32603 with the raw schema
 * issues), and its span named by the member the params name. While telemetry is idle (or off) the
 * schema form calls the handler itself: no span wrapper made, no `{ params }` object per call.
 * `once`: the server serves one request, now (a 2026-07-28 per-request server): whether telemetry
 * is idle is read now, for it, and an idle one's handler is registered as it is (no closure of
 * ours between the SDK and it).
 */
export function serveMember(server: Server, traced: RequestTelemetry, method: MemberMethodName, handler: MemberHandler, once = false): void {
  const row = MEMBER_METHODS[method];
  if (row.params === 'sdk') {
    server.setRequestHandler(method as never, tracedMember(traced, method, handler) as never);
    return;
  }
  const schema = row.params === 'as-sent' ? PASS_THROUGH : (specTypeSchemas[row.params] as StandardSchemaV1);
  // The SDK calls it with (params, ctx): its trace is undefined, as an idle request's is.
  if (once && traced.idle) return void server.setRequestHandler(method as never, { params: schema }, handler as never);
  // The span wrapper is made for the first request that has a span (none while telemetry is idle).
  let served: ReturnType<typeof tracedMember> | undefined;
  server.setRequestHandler(method as never, { params: schema }, ((params: Record<string, unknown>, ctx: ServerContext) =>
    traced.idle ? handler(params, ctx, undefined) : (served ??= tracedMember(traced, method, handler))({ params }, ctx)) as never);
}

/** A member method's handler inside its request's span, named by the member the params name. */
function tracedMember(traced: RequestTelemetry, method: MemberMethodName, handler: MemberHandler) {
  const row = MEMBER_METHODS[method];
  return traced.serve(
    method,
    (request: { params?: unknown }) => spanTargetOf(row.target(request.params)),
    (request, ctx, trace) => handler(request.params as Record<string, unknown>, ctx, trace)
  );
}

/**
 * Params taken as they come, for a handler that checks them itself or needs no second parse:
 * `tools/call` (the SDK's `Server` checks every one against the era's spec schema before any
 * handler, -32602 naming the problem) and `tasks/*` (checked after the capability gate).
 */
export const PASS_THROUGH: StandardSchemaV1 = {
  '~standard': { version: 1, vendor: 'mcpfusion', validate: (value: unknown) => ({ value }) }
};
