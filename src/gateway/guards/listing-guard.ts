import type { Tool } from '@modelcontextprotocol/client';
import { UpstreamError } from '../../errors';
import { UPSTREAM_LIMITS } from './limits';

/**
 * Counts an upstream's tool listing as its pages arrive, and stops it past the bounds (tools,
 * bytes, pages): a 50 MB listing, or a cursor that never ends, is refused with an error naming
 * the upstream, instead of being kept.
 */
export class ListingBudget {
  private tools = 0;
  private bytes = 0;
  private pages = 0;

  /** `label` names the upstream in the error. */
  constructor(private readonly label: string) {}

  /** Counts a page; throws an {@link UpstreamError} when the listing so far is past a bound. */
  add(page: readonly Tool[]): void {
    this.pages++;
    this.tools += page.length;
    this.bytes += Buffer.byteLength(JSON.stringify(page));
    const { maxTools, maxListingBytes, maxListingPages } = UPSTREAM_LIMITS;
    const over =
      this.tools > maxTools
        ? `more than ${maxTools} tools`
        : this.bytes > maxListingBytes
          ? `a tool listing over ${maxListingBytes} bytes`
          : this.pages > maxListingPages
            ? `more than ${maxListingPages} pages of tools`
            : undefined;
    if (over)
      throw new UpstreamError(`The upstream ${this.label} lists ${over}, past what the gateway keeps of one upstream; it is not served.`);
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
