import { specTypeSchemas, type StandardSchemaV1 } from '@modelcontextprotocol/server';
import { sdkSeamInvalidResult } from '../../../errors/sdk-seam-errors';

type Json = Record<string, unknown>;

/** The spec's tool result schema, as the SDK exports it (synchronous: no async refinement in it). */
const TOOL_RESULT = specTypeSchemas.CallToolResult as StandardSchemaV1<unknown, Json>;

/**
 * A complete tool result checked as the SDK's server checks one before it goes out
 * (`Server._wrapHandler` for `tools/call`): parsed with the spec's result schema, whose value is
 * what is sent (a content block keeps only the members the spec gives it, in the schema's order);
 * a result that does not fit is the SDK's -32602 `Invalid tools/call result`, with the schema's
 * issues. A lane answers an app's tool (whose handler may return any object with a `content`
 * array) as the normal path would.
 */
export function checkedToolResult(result: Json): Json {
  const outcome = TOOL_RESULT['~standard'].validate(result) as StandardSchemaV1.Result<Json>;
  if (outcome.issues) throw sdkSeamInvalidResult(outcome.issues);
  return outcome.value;
}
