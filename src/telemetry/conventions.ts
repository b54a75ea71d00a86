/**
 * The names the framework's telemetry uses. Span and metric names and the `mcp.*`, `gen_ai.*`,
 * `jsonrpc.*`, `rpc.*`, `error.*`, `network.*`, `client.*` and `enduser.*` attributes follow the
 * OpenTelemetry semantic conventions for MCP (semantic-conventions-genai, `docs/gen-ai/mcp.md`).
 * What those conventions do not cover yet (the stages of the chain, the rounds of a call that
 * asks for input, cancellation, the queue) is under the framework's own `mcpfusion.` namespace,
 * named in the conventions' style, so it never collides with a name they add later.
 */

/** The instrumentation scope of every span and metric (the package). */
export const INSTRUMENTATION_SCOPE = '@mcpfusion/core';

export const ATTR_MCP_METHOD_NAME = 'mcp.method.name';
export const ATTR_MCP_PROTOCOL_VERSION = 'mcp.protocol.version';
export const ATTR_MCP_SESSION_ID = 'mcp.session.id';
export const ATTR_MCP_RESOURCE_URI = 'mcp.resource.uri';
export const ATTR_GEN_AI_TOOL_NAME = 'gen_ai.tool.name';
export const ATTR_GEN_AI_PROMPT_NAME = 'gen_ai.prompt.name';
export const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const ATTR_JSONRPC_REQUEST_ID = 'jsonrpc.request.id';
export const ATTR_RPC_RESPONSE_STATUS_CODE = 'rpc.response.status_code';
export const ATTR_ERROR_TYPE = 'error.type';
export const ATTR_NETWORK_TRANSPORT = 'network.transport';
export const ATTR_NETWORK_PROTOCOL_NAME = 'network.protocol.name';
export const ATTR_CLIENT_ADDRESS = 'client.address';
export const ATTR_ENDUSER_ID = 'enduser.id';
export const ATTR_ENDUSER_SCOPE = 'enduser.scope';

/** `gen_ai.operation.name` of a tool call. */
export const OPERATION_EXECUTE_TOOL = 'execute_tool';
/** `error.type` of a `CallToolResult` with `isError: true`. */
export const ERROR_TYPE_TOOL_ERROR = 'tool_error';

/** The round of an interactive call this request is (1 for the first request, 2 for the first answer, …). */
export const ATTR_INPUT_ROUND = 'mcpfusion.input.round';
/** What a request for input asked for (`elicitation`, `elicitation_url`, `sampling`, `roots`), a string array. */
export const ATTR_INPUT_KINDS = 'mcpfusion.input.kinds';
/** Why a call was cancelled: `client_cancel`, `stream_closed`, `timeout`, `shutdown`, `task_cancel`. */
export const ATTR_CANCEL_SOURCE = 'mcpfusion.cancel.source';
/** The id of the task a call became, or whose request this is. */
export const ATTR_TASK_ID = 'mcpfusion.task.id';
/** The chain stage a span measures (`queue`, `mutation-lock`, `middleware`, `validate-input`, `handler`, `present`). */
export const ATTR_STAGE = 'mcpfusion.stage';
/** Calls waiting in the queue when this one arrived. */
export const ATTR_QUEUE_DEPTH = 'mcpfusion.queue.depth';
/** The relation a span link records: `first_round` (an earlier round of the same call), `created_by` (the request that created a task). */
export const ATTR_LINK_RELATION = 'mcpfusion.link.relation';

/** The duration of a request as the server handled it (the conventions' metric), in seconds. */
export const METRIC_OPERATION_DURATION = 'mcp.server.operation.duration';
/** The conventions' advised bucket boundaries for it. */
export const OPERATION_DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
export const METRIC_CALLS_ACTIVE = 'mcpfusion.calls.active';
export const METRIC_QUEUE_DEPTH = 'mcpfusion.queue.depth';
export const METRIC_CALLS_SHED = 'mcpfusion.calls.shed';
export const METRIC_CALLS_CANCELLED = 'mcpfusion.calls.cancelled';
export const METRIC_LOCK_WAIT = 'mcpfusion.lock.wait.duration';
export const METRIC_QUEUE_WAIT = 'mcpfusion.queue.wait.duration';
export const METRIC_INPUT_ROUNDS = 'mcpfusion.input.rounds';
