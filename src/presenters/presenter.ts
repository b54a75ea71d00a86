import type { CallToolResult } from '@modelcontextprotocol/server';

/** Whether a value is already a tool result (a `content` array of typed blocks). */
export function isCallToolResult(value: unknown): value is CallToolResult {
  if (typeof value !== 'object' || value === null) return false;
  const content = (value as { content?: unknown }).content;
  return (
    Array.isArray(content) &&
    content.every((block) => typeof block === 'object' && block !== null && typeof (block as { type?: unknown }).type === 'string')
  );
}
