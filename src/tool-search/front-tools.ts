import type { Tool } from '@modelcontextprotocol/server';
import { INTERACTIVE_META_KEY } from '../surface/compile-tools';
import type { ToolSearchSettings } from './tool-search-options';

/**
 * The two tools a searched catalog lists: their descriptions are what the model reads to learn
 * the protocol of search-then-call, so they say it in plain words and name each other.
 * (The 2026-07-28 specification defines no progressive-discovery shape of its own; these are
 * ordinary tools, so every client of either era can use them.)
 */
export function searchToolListing(settings: ToolSearchSettings, catalogSize: number): Tool {
  return {
    name: settings.searchToolName,
    title: 'Search tools',
    description:
      `Finds this server's tools (${catalogSize} of them) by what they do. Describe the task in a few words ` +
      `("refund an invoice", "list files in a folder"); the best matches come back with their full input schemas ` +
      `and annotations. Then call one with ${settings.callToolName}.`,
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What the tool should do, in a few words (or its exact name).' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: settings.maxLimit,
          description: `How many tools to return (default ${settings.defaultLimit}, at most ${settings.maxLimit}).`
        }
      },
      required: ['query'],
      additionalProperties: false
    },
    annotations: { title: 'Search tools', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
  };
}

/** The call tool: it runs the named tool as if it were called directly (its own checks, questions, progress and locks). */
export function callToolListing(settings: ToolSearchSettings, interactive: boolean): Tool {
  return {
    name: settings.callToolName,
    title: 'Call a tool',
    description:
      `Calls a tool found with ${settings.searchToolName}, by its exact name, with arguments that match its input schema. ` +
      'The tool runs exactly as if it were called directly: it may ask the user a question, report progress, or refuse.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: `The tool's exact name, as ${settings.searchToolName} gave it.` },
        arguments: { type: 'object', description: "The tool's arguments, matching its input schema.", additionalProperties: true }
      },
      required: ['name'],
      additionalProperties: false
    },
    // What the called tool may do is unknown until it is named: the call tool promises nothing.
    annotations: { title: 'Call a tool', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    ...(interactive ? { _meta: { [INTERACTIVE_META_KEY]: true } } : {})
  };
}
