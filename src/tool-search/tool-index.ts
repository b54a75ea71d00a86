import type { Tool } from '@modelcontextprotocol/server';
import { Bm25Index } from './bm25-index';
import { toolDocument } from './tool-document';
import { tokenize } from './tokenize';

/**
 * The search over one catalog's tools: BM25 over their names, titles, descriptions and
 * parameters (see `tool-document.ts`), with no network and no model. A query that names a tool
 * exactly (`billing.refund`) finds it first whatever the scores say: a model that already knows
 * the name should not have to describe it. Built once per catalog; a catalog change builds a new
 * index, so tools added or removed at run time are found (or not) from the next search on.
 *
 * @example
 * ```ts
 * const index = new ToolIndex(app.listTools());
 * index.search('refund an invoice', 3).map((tool) => tool.name); // ['billing.refund', …]
 * ```
 */
export class ToolIndex {
  private readonly byName: ReadonlyMap<string, Tool>;
  private readonly ranking: Bm25Index<string>;

  /** Indexes `tools` (their names, titles, descriptions and parameters) at once. */
  constructor(tools: readonly Tool[]) {
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
    this.ranking = new Bm25Index(tools.map(toolDocument));
  }

  /** How many tools the index holds. */
  get size(): number {
    return this.byName.size;
  }

  /**
   * The best matches for `query`, best first, at most `limit`, among the tools `allowed` lets
   * through (default: all). A query with no term the catalog knows finds nothing.
   */
  search(query: string, limit: number, allowed: (tool: Tool) => boolean = () => true): Tool[] {
    const named = this.namedIn(query);
    const ranked = this.ranking.rank(tokenize(query)).map((match) => match.key);
    const found: Tool[] = [];
    for (const name of new Set([...named, ...ranked])) {
      const tool = this.byName.get(name)!;
      if (!allowed(tool)) continue;
      found.push(tool);
      if (found.length >= limit) break;
    }
    return found;
  }

  /** The tools whose exact name the query contains as a word of its own, longest name first. */
  private namedIn(query: string): string[] {
    const words = new Set(query.split(/[\s,;:'"`()[\]{}]+/).filter((word) => word.length > 0));
    return [...this.byName.keys()].filter((name) => words.has(name)).sort((a, b) => b.length - a.length);
  }
}
