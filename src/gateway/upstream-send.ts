import { context, propagation } from '@opentelemetry/api';
import { CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY, type Client, type ClientCapabilities } from '@modelcontextprotocol/client';
import type { UpstreamCall } from './upstream-call';
import { callThroughRounds } from './upstream-rounds';
import { FORWARDED_RESULT } from './upstream-result';
import { forwardedCapabilities } from './upstream-wire';
import type { RawExchange } from '../wire/raw-exchange';
import { callAcceptingTasks, taskEnvelope } from './tasks/task-call';

/** A request's upper bound the SDK holds the gateway to: long, since a question to a person may be pending (the park bounds that). */
const UPSTREAM_REQUEST_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/** The params of one `tools/call` the gateway sends upstream. */
export interface SentCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly _meta: Record<string, unknown>;
}

/**
 * The `_meta` of a tool call sent upstream: its progress token and trace context; for a
 * 2026-07-28 upstream (`modern`) the log level asked for and what the gateway forwards of the
 * front client's capabilities; and, for a call sent raw (`taskVersion`, the negotiated revision),
 * the per-request envelope with the tasks extension declared.
 */
export function callMeta(
  token: string,
  modern: boolean,
  front: ClientCapabilities | undefined,
  taskVersion: string | undefined
): Record<string, unknown> {
  // The proxied call's trace context travels upstream (SEP-414: `traceparent` in `_meta`), where a registered propagator has one.
  const meta: Record<string, unknown> = { progressToken: token };
  // A 2026-07-28 upstream logs to a request only when asked: every level is asked for, the front's own level filters what it gets.
  if (modern) meta[LOG_LEVEL_META_KEY] = 'debug';
  if (modern && front) meta[CLIENT_CAPABILITIES_META_KEY] = forwardedCapabilities(front);
  propagation.inject(context.active(), meta);
  if (taskVersion !== undefined && front) Object.assign(meta, taskEnvelope(taskVersion, forwardedCapabilities(front)));
  return meta;
}

/**
 * Sends one tool call upstream and resolves with its result: raw when `raw` is given (a front
 * client that accepts a task, before an upstream that offers them: the SDK refuses a task
 * result); to a 2026-07-28 upstream through its rounds, which pass through whole (their keys,
 * several requests at once); to a 2025-era one as one request, whose questions come live.
 */
export function sendCall(client: Client, call: UpstreamCall, params: SentCall, raw: RawExchange | undefined): Promise<unknown> {
  if (raw) return callAcceptingTasks(raw, call, params);
  if (client.getProtocolEra() === 'modern') return callThroughRounds(client, call, params, UPSTREAM_REQUEST_TIMEOUT_MS);
  // One check of the result's shape (see FORWARDED_RESULT): the front chain checks the output schema.
  return client.request({ method: 'tools/call', params: { ...params } }, FORWARDED_RESULT, {
    signal: call.signal,
    timeout: UPSTREAM_REQUEST_TIMEOUT_MS
  });
}
