import type { CallToolResult } from '@modelcontextprotocol/server';
import { pickBySchema } from '../schema/json-schema';
import type { JsonSchema } from '../types/core';
import { isCallToolResult } from './presenter';

/**
 * The default presentation of a returned value (see {@link PresentationContext.shape}).
 * Arrays are wrapped as `{ items: [...] }` because 2025-era `structuredContent` must be an object.
 */
export function shapeValue(value: unknown, outputSchema: JsonSchema | undefined, notes?: readonly string[]): CallToolResult {
  let result: CallToolResult;
  if (isCallToolResult(value)) {
    result =
      value.structuredContent !== undefined && outputSchema
        ? { ...value, structuredContent: pickBySchema(value.structuredContent, outputSchema) as Record<string, unknown> }
        : value;
  } else if (value === undefined || value === null) {
    result = { content: [] };
  } else if (typeof value === 'string') {
    result = { content: [{ type: 'text', text: value }] };
  } else if (typeof value === 'object') {
    const wrapped = Array.isArray(value) ? { items: value } : value;
    const structured = pickBySchema(wrapped, outputSchema) as Record<string, unknown>;
    result = { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  } else {
    result = { content: [{ type: 'text', text: String(value) }] };
  }
  if (notes && notes.length > 0) {
    result = { ...result, content: [...result.content, ...notes.map((text) => ({ type: 'text' as const, text }))] };
  }
  return result;
}
