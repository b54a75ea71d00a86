import type { GetPromptResult, PromptMessage, ReadResourceResult } from '@modelcontextprotocol/server';
import { pickBySchema } from '../schema/json-schema';
import type { JsonSchema } from '../types/core';

/**
 * What a resource method returned, as `resources/read` contents: a string is text, bytes
 * are a base64 `blob`, a `{ contents }` result passes through, anything else is JSON (only
 * what `allowlist`, the member's `output`, declares).
 */
export function toResourceContents(uri: string, value: unknown, mimeType: string | undefined, allowlist?: JsonSchema): ReadResourceResult {
  if (value && typeof value === 'object' && Array.isArray((value as { contents?: unknown }).contents)) return value as ReadResourceResult;
  if (typeof value === 'string') return { contents: [{ uri, mimeType: mimeType ?? 'text/plain', text: value }] };
  if (value instanceof Uint8Array) {
    return { contents: [{ uri, mimeType: mimeType ?? 'application/octet-stream', blob: Buffer.from(value).toString('base64') }] };
  }
  return { contents: [{ uri, mimeType: mimeType ?? 'application/json', text: JSON.stringify(pickBySchema(value, allowlist)) }] };
}

/** What a prompt method returned, as a `prompts/get` result: a string is one user text message. */
export function toPromptResult(value: unknown, description: string | undefined): GetPromptResult {
  if (typeof value === 'string') return { description, messages: [{ role: 'user', content: { type: 'text', text: value } }] };
  if (Array.isArray(value)) return { description, messages: value as PromptMessage[] };
  if (value && typeof value === 'object' && Array.isArray((value as { messages?: unknown }).messages)) return value as GetPromptResult;
  throw new TypeError('A prompt method must return a string, an array of messages, or { messages }.');
}
