import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  type CallToolResult,
  type ClientCapabilities
} from '@modelcontextprotocol/client';
import { TASKS_EXTENSION } from '../../tasks/task-record';
import type { UpstreamCall } from '../upstream-call';
import { throughRounds } from '../upstream-rounds';
import type { RawExchange } from '../../wire/raw-exchange';

/** How the gateway names itself to its upstream (as its SDK client does). */
const GATEWAY_INFO = { name: 'mcpfusion-gateway', version: '1.0.0' };

/**
 * The per-request envelope of a raw 2026-07-28 request (the SDK client stamps its own on the
 * requests it makes; a raw one carries it here): the revision, the gateway's name, and the client
 * capabilities the upstream is told, `capabilities` with the tasks extension declared.
 */
export function taskEnvelope(protocolVersion: string, capabilities: ClientCapabilities): Record<string, unknown> {
  return {
    [PROTOCOL_VERSION_META_KEY]: protocolVersion,
    [CLIENT_CAPABILITIES_META_KEY]: { ...capabilities, extensions: { [TASKS_EXTENSION]: {} } },
    [CLIENT_INFO_META_KEY]: GATEWAY_INFO
  };
}

/**
 * A call to a 2026-07-28 upstream that offers tasks, for a front client that accepts one: sent
 * raw (see `RawExchange`), its `input_required` rounds passed through whole as any call's are
 * (`throughRounds`), ending with the tool's result, or with the upstream's `CreateTaskResult`
 * (`resultType: "task"`, kept as sent: the front's tasks extension adopts it). Another result
 * type is a failure naming it.
 */
export async function callAcceptingTasks(
  raw: RawExchange,
  call: UpstreamCall,
  params: { name: string; arguments: Record<string, unknown>; _meta: Record<string, unknown> }
): Promise<CallToolResult> {
  const answer = withoutServerInfo(
    await throughRounds<Record<string, unknown>>(call, (retry) => raw.request('tools/call', { ...params, ...retry }, call.signal))
  );
  const { resultType, ...rest } = answer;
  if (resultType === 'task') {
    if (typeof answer.taskId !== 'string' || answer.taskId === '') throw new Error('The upstream answered a task without a taskId.');
    return answer as CallToolResult;
  }
  if (resultType !== undefined && resultType !== 'complete')
    throw new Error(`The upstream answered with an unknown result type ${JSON.stringify(resultType)}.`);
  return rest as CallToolResult;
}

/**
 * A raw answer without the upstream's `serverInfo` (`_meta`): the front's server stamps its own,
 * and keeps one already there. (The SDK client lifts it off the answers it decodes.)
 */
export function withoutServerInfo(answer: Record<string, unknown>): Record<string, unknown> {
  const meta = answer._meta;
  if (!meta || typeof meta !== 'object' || !(SERVER_INFO_META_KEY in meta)) return answer;
  const { [SERVER_INFO_META_KEY]: _upstream, ...kept } = meta as Record<string, unknown>;
  const { _meta: _old, ...rest } = answer;
  return Object.keys(kept).length > 0 ? { ...rest, _meta: kept } : rest;
}
