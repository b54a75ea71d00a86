import type { CallToolResult } from '@modelcontextprotocol/server';
import { ConfigurationError, UnknownToolError } from '../errors';
import { callDirect } from '../direct/direct-call';
import type { CompiledMember } from '../pipeline/compiled-member';
import type { CallKind } from '../types/core';
import type { DirectCallOptions } from '../types/harness';
import type { AppParts } from './assemble';

/**
 * What `app.callTool` does: calls a tool through its full chain with no transport (`src/direct/`
 * does the work). With `toolSearch`, the search tool answers here too, and the call tool calls
 * the tool it names (its input rounds answered as `options` says). An unknown name rejects with
 * UnknownToolError; any other failure resolves as an `isError` result.
 */
export function callByName(
  parts: AppParts,
  name: string,
  args: Record<string, unknown>,
  options: DirectCallOptions
): Promise<CallToolResult> {
  const { tools, search } = parts.toolClasses.catalogs;
  const tool = tools.get(name);
  if (tool) return callDirect(parts.direct, tool, args, options);
  if (!search?.serves(name)) return Promise.reject(new UnknownToolError(name));
  try {
    const routed = search.route(name, args, undefined);
    if ('answer' in routed) return Promise.resolve(routed.answer);
    return callDirect(parts.direct, routed.call.tool, routed.call.arguments as Record<string, unknown>, options);
  } catch (error) {
    return Promise.resolve(parts.boundary.fail('tool', name, 'request', error) as CallToolResult);
  }
}

/** What `app.describeChain` shows: a member's compiled chain as step names in order (a resource by URI or URI template). */
export function chainOf(parts: AppParts, name: string, kind: Exclude<CallKind, 'completion'>): readonly string[] {
  const { tools, prompts, resources } = parts.toolClasses.catalogs;
  const member: CompiledMember | undefined =
    kind === 'tool' ? tools.get(name) : kind === 'prompt' ? prompts.get(name) : resources.member(name);
  if (!member) throw new ConfigurationError(`No ${kind} named ${name}.`);
  return member.steps.map((step) => step.name);
}
