import type { AppParts } from './assemble';
import type { ListChanges } from './tool-class-set';

/**
 * Which lists differ between two definitions of an app (a reload: `FusionApp.adopt`), so clients
 * are told of those only. Tools and prompts by their listings (tools also by what `tools/list` shows: the search front); resources by the fixed listing,
 * the templates and the extensions' resources (views among them), and as changed whenever either
 * side has a template with a list method (what it lists is known only by running it).
 */
export function changedLists(before: AppParts, after: AppParts): ListChanges {
  const [was, now] = [before.toolClasses.catalogs, after.toolClasses.catalogs];
  const resourcesOf = (parts: AppParts): string => {
    const { resources } = parts.toolClasses.catalogs;
    return JSON.stringify([resources.fixedListing(), resources.listTemplates(), parts.extensions.listedResources()]);
  };
  return {
    // The catalog, and what `tools/list` shows of it (a reload that turns `toolSearch` on or off changes only the latter).
    tools:
      JSON.stringify(was.tools.listing) !== JSON.stringify(now.tools.listing) ||
      JSON.stringify(before.router.listTools()) !== JSON.stringify(after.router.listTools()),
    prompts: JSON.stringify(was.prompts.listing) !== JSON.stringify(now.prompts.listing),
    resources:
      was.resources.listMembers().length > 0 || now.resources.listMembers().length > 0 || resourcesOf(before) !== resourcesOf(after)
  };
}
