import type { CallToolResult } from '@modelcontextprotocol/client';
import type { StandardSchemaV1 } from '@modelcontextprotocol/server';

/** What each content block must carry, by its `type` (the string fields the front client's SDK requires of it). */
const BLOCK_FIELDS: Readonly<Record<string, readonly string[]>> = {
  text: ['text'],
  image: ['data', 'mimeType'],
  audio: ['data', 'mimeType'],
  resource_link: ['uri', 'name'],
  resource: []
};

/**
 * The one check a forwarded `tools/call` result gets at the gateway: its shape (`content` an array
 * of known blocks with their required fields, `structuredContent` an object, `isError` a boolean),
 * hand-written, in one pass. The SDK client's own `callTool` parses the whole result with its zod
 * schema and checks `structuredContent` against the tool's output schema; the gateway's front
 * chain checks the output schema again where the tool lists one (`present-tool`), so the client's
 * pass was paid twice per call (a profile named it among the largest costs of a hop). A result
 * that fails is refused with the reason, as the SDK's parse would refuse it.
 */
export const FORWARDED_RESULT: StandardSchemaV1<unknown, CallToolResult> = {
  '~standard': {
    version: 1,
    vendor: 'mcpfusion',
    validate: (value: unknown) => {
      const problem = resultProblem(value);
      if (problem) return { issues: [{ message: `The upstream's tools/call result is malformed: ${problem}` }] };
      const result = value as Record<string, unknown>;
      // As the SDK's schema does: a result without `content` has an empty one.
      return { value: (result.content === undefined ? { ...result, content: [] } : result) as CallToolResult };
    }
  }
};

function resultProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'it is not an object';
  const { content, structuredContent, isError } = value;
  if (isError !== undefined && typeof isError !== 'boolean') return '`isError` is not a boolean';
  if (structuredContent !== undefined && !isObject(structuredContent)) return '`structuredContent` is not an object';
  if (content === undefined) return undefined;
  if (!Array.isArray(content)) return '`content` is not an array';
  for (let i = 0; i < content.length; i++) {
    const block: unknown = content[i];
    if (!isObject(block) || typeof block.type !== 'string') return `content[${i}] has no type`;
    const fields = BLOCK_FIELDS[block.type];
    if (!fields) return `content[${i}] has an unknown type ${JSON.stringify(block.type).slice(0, 40)}`;
    for (const field of fields) if (typeof block[field] !== 'string') return `content[${i}] (${block.type}) has no ${field}`;
    if (block.type === 'resource' && !isObject(block.resource)) return `content[${i}] (resource) has no resource`;
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
