import type { Tool } from '@modelcontextprotocol/client';
import { UPSTREAM_LIMITS } from './limits';

/**
 * Counts an upstream's tool listing as its pages arrive at the transport (before the SDK gathers
 * them), and says when it is past a bound (tools, bytes, pages): a 50 MB listing, or a cursor
 * that never ends, is then broken off, instead of being kept. A page without `nextCursor` ends
 * the listing: the count starts again.
 */
export class ListingBudget {
  private tools = 0;
  private bytes = 0;
  private pages = 0;

  /** Counts a `tools/list` page; returns what is wrong (`it lists more than 2000 tools`) when the listing so far is past a bound. */
  add(page: readonly unknown[], last: boolean): string | undefined {
    this.pages++;
    this.tools += page.length;
    this.bytes += Buffer.byteLength(JSON.stringify(page));
    const { maxTools, maxListingBytes, maxListingPages } = UPSTREAM_LIMITS;
    const over =
      this.tools > maxTools
        ? `it lists more than ${maxTools} tools`
        : this.bytes > maxListingBytes
          ? `it sent a tool listing over ${maxListingBytes} bytes`
          : this.pages > maxListingPages
            ? `it sent more than ${maxListingPages} pages of tools`
            : undefined;
    if (last || over) this.tools = this.bytes = this.pages = 0;
    return over;
  }
}

/**
 * Why one upstream tool is left out of the listing, or undefined when it is served. `frontName`
 * is its namespaced name; `seen` maps the front names served so far, case-folded, to their
 * upstream names: a name equal to one of them (or equal but for case: hosts and models match
 * tool names loosely) would make two tools one, so the later one is refused, naming both.
 */
export function toolProblem(tool: Tool, frontName: string, seen: ReadonlyMap<string, string>): string | undefined {
  const { maxToolNameChars, maxDescriptionChars, maxTitleChars, maxToolBytes } = UPSTREAM_LIMITS;
  if (typeof tool.name !== 'string' || tool.name.length > maxToolNameChars)
    return `its name is over ${maxToolNameChars} characters (or not a string)`;
  if (!/^[A-Za-z0-9_.-]{1,128}$/.test(frontName)) return `"${frontName}" is not a tool name the protocol allows`;
  const other = seen.get(frontName.toLowerCase());
  if (other !== undefined)
    return other === tool.name
      ? `it is listed twice under ${JSON.stringify(tool.name)}`
      : `its front name "${frontName}" collides with upstream tool ${JSON.stringify(other)}, served first`;
  if (typeof tool.description === 'string' && tool.description.length > maxDescriptionChars)
    return `its description is ${tool.description.length} characters, over ${maxDescriptionChars}`;
  if (typeof tool.title === 'string' && tool.title.length > maxTitleChars) return `its title is over ${maxTitleChars} characters`;
  const bytes = Buffer.byteLength(JSON.stringify(tool));
  if (bytes > maxToolBytes) return `it is ${bytes} bytes as JSON, over ${maxToolBytes}`;
  return undefined;
}
