import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { CalledToolNotFoundError, ConfigurationError, InvalidInputError, type Violation } from '../errors';
import type { CompiledTool } from '../pipeline/compiled-member';
import type { ToolCatalog } from '../surface/tool-catalog';
import { isPlainJsonObject, ownValue } from '../wire/own-properties';
import { INTERACTIVE_META_KEY } from '../surface/compile-tools';
import { callToolListing, searchToolListing } from './front-tools';
import { ToolIndex } from './tool-index';
import type { ToolSearchSettings } from './tool-search-options';

/** The longest query taken, in characters. */
const MAX_QUERY_LENGTH = 1_000;

/** Which tools a caller may see, by a tool's scopes (absent: all). */
export type ShownTo = ((scopes: readonly string[]) => boolean) | undefined;

/** A call through the call tool, resolved: the tool it names and the arguments for it (untrusted still: its chain validates them). */
export interface SearchedCall {
  readonly tool: CompiledTool;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/**
 * A catalog put behind search (`toolSearch`): what `tools/list` shows (the search tool, the call
 * tool, the pinned tools), the answers of the search tool, and what a call tool call runs. Made
 * with each catalog (a run-time change of tools makes a new one, so a search finds what is there
 * now); the index is built on the first search, not at startup.
 *
 * It decides nothing about a call itself: the call tool's call is run by the engine through the
 * named tool's own chain (see `MemberRouter.callTool`), so scopes, locks, questions, progress and
 * tasks are the tool's. Bad input throws a `FusionError` the boundary makes an `isError` result of.
 */
export class ToolSearch {
  private index: ToolIndex | undefined;
  private readonly front: readonly Tool[];

  constructor(
    private readonly catalog: ToolCatalog,
    private readonly settings: ToolSearchSettings
  ) {
    for (const name of [settings.searchToolName, settings.callToolName]) {
      const clash = catalog.get(name);
      if (clash)
        throw new ConfigurationError(
          `toolSearch lists a tool named ${name}, and ${clash.info.className}.${clash.info.methodName} has that name too: ` +
            'rename one (toolSearch.searchToolName / callToolName).'
        );
    }
    // As the tools are listed (a proxied tool's chain can always ask, its listing says whether it is known to).
    const interactive = catalog.listing.some((tool) => tool._meta?.[INTERACTIVE_META_KEY] === true);
    this.front = Object.freeze([searchToolListing(settings, catalog.listing.length), callToolListing(settings, interactive)]);
  }

  /** Whether `name` is the search tool or the call tool. */
  serves(name: string): boolean {
    return name === this.settings.searchToolName || name === this.settings.callToolName;
  }

  /** Whether `name` is the search tool. */
  isSearch(name: string): boolean {
    return name === this.settings.searchToolName;
  }

  /** The listing of one of the two tools, by name. */
  frontTool(name: string): Tool | undefined {
    return this.front.find((tool) => tool.name === name);
  }

  /** What `tools/list` shows: the pinned tools the caller may see, then the search and call tools. */
  listing(shown: ShownTo): readonly Tool[] {
    const pinned = this.catalog.listing.filter(
      (tool) => this.settings.pinned.has(tool.name) && (!shown || shown(this.catalog.get(tool.name)!.info.scopes))
    );
    return [...pinned, ...this.front];
  }

  /** The search tool's answer: the best matches, with their listing entries (schemas, annotations) as `tools/list` gives them. */
  search(args: Readonly<Record<string, unknown>> | undefined, shown: ShownTo): CallToolResult {
    const name = this.settings.searchToolName;
    const query = ownValue(args, 'query');
    const limit = ownValue(args, 'limit') ?? this.settings.defaultLimit;
    const violations: Violation[] = [];
    if (typeof query !== 'string' || query.trim().length === 0)
      violations.push({ path: 'query', message: 'must be a non-empty string saying what the tool should do' });
    // A query is a few words: a long one is not a search (and would cost time to split), whoever sent it.
    else if (query.length > MAX_QUERY_LENGTH) violations.push({ path: 'query', message: `must be at most ${MAX_QUERY_LENGTH} characters` });
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > this.settings.maxLimit)
      violations.push({ path: 'limit', message: `must be a whole number from 1 to ${this.settings.maxLimit}` });
    violations.push(...unknownKeys(args, ['query', 'limit']));
    if (violations.length > 0) throw new InvalidInputError(name, violations);
    this.index ??= new ToolIndex(this.catalog.listing);
    const allowed = shown ? (tool: Tool) => shown(this.catalog.get(tool.name)!.info.scopes) : undefined;
    const tools = this.index.search(query as string, limit as number, allowed);
    const text =
      tools.length > 0
        ? JSON.stringify({ tools })
        : `No tool matches ${JSON.stringify(query)}. Try other words for what the tool should do (an action and what it acts on).`;
    return { content: [{ type: 'text', text }], structuredContent: { tools } };
  }

  /**
   * A call of the search tool or the call tool, by name: the search's answer, or the call to run through the
   * named tool's chain (the router and `app.callTool` each run it their way). Bad input throws a `FusionError`.
   */
  route(
    name: string,
    args: Readonly<Record<string, unknown>> | undefined,
    shown: ShownTo
  ): { answer: CallToolResult } | { call: SearchedCall } {
    return this.isSearch(name) ? { answer: this.search(args, shown) } : { call: this.callOf(args) };
  }

  /** The tool a call tool call names, and its arguments; bad input (no name, an unknown one, arguments that are not an object) throws. */
  callOf(args: Readonly<Record<string, unknown>> | undefined): SearchedCall {
    const name = ownValue(args, 'name');
    const toolArgs = ownValue(args, 'arguments') ?? {};
    const violations: Violation[] = [];
    if (typeof name !== 'string' || name.length === 0) violations.push({ path: 'name', message: 'must be the exact name of a tool' });
    else if (this.serves(name))
      violations.push({ path: 'name', message: `names ${name}, which is called directly, not through ${this.settings.callToolName}` });
    if (!isPlainJsonObject(toolArgs)) violations.push({ path: 'arguments', message: "must be an object of the tool's arguments" });
    violations.push(...unknownKeys(args, ['name', 'arguments']));
    if (violations.length > 0) throw new InvalidInputError(this.settings.callToolName, violations);
    const tool = this.catalog.get(name as string);
    if (!tool) throw new CalledToolNotFoundError(name as string, this.settings.searchToolName);
    return { tool, arguments: toolArgs as Record<string, unknown> };
  }
}

/** A violation for each key the tool does not take (a model that invents a parameter is told so). */
function unknownKeys(args: Readonly<Record<string, unknown>> | undefined, known: readonly string[]): Violation[] {
  return Object.keys(args ?? {})
    .filter((key) => !known.includes(key))
    .map((key) => ({ path: key, message: `is not a parameter (the parameters are ${known.join(', ')})` }));
}
