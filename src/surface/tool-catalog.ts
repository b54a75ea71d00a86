import type { Tool } from '@modelcontextprotocol/server';
import type { CompiledTool } from '../pipeline/compiled-member';

/** The app's tools by name, and their `tools/list` entries, built once (and again when tools change at run time). */
export class ToolCatalog {
  private readonly tools: ReadonlyMap<string, CompiledTool>;
  /** The `tools/list` entries. */
  readonly listing: readonly Tool[];

  constructor(tools: readonly CompiledTool[]) {
    this.tools = new Map(tools.map((tool) => [tool.info.name, tool]));
    this.listing = Object.freeze(tools.map((tool) => tool.listing));
  }

  /** The entries of the tools a caller may use (`allowed` says of a member's scopes). */
  listingFor(allowed: (scopes: readonly string[]) => boolean): readonly Tool[] {
    return [...this.tools.values()].filter((tool) => allowed(tool.info.scopes)).map((tool) => tool.listing);
  }

  /** A compiled tool by name. */
  get(name: string): CompiledTool | undefined {
    return this.tools.get(name);
  }
}
