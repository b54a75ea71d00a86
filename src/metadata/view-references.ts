import { VIEW_SCHEME } from './tool-view';
import type { ResourceDescriptor } from './surface-descriptors';
import type { ToolDescriptor } from './tool-descriptor';

/**
 * Every view a tool names must be one the app serves (a view of the `views` option, or a
 * `@Resource` at a `ui://` URI), and a view's URI may not be a decorated resource's too.
 */
export function checkViewReferences(
  tools: readonly ToolDescriptor[],
  resources: readonly ResourceDescriptor[],
  views: ReadonlySet<string>,
  seen: ReadonlyMap<string, string>,
  problems: string[]
): void {
  const served = new Set([...views, ...resources.filter((r) => r.uri.startsWith(VIEW_SCHEME)).map((r) => r.uri)]);
  for (const tool of tools) {
    if (tool.view && !served.has(tool.view)) {
      const known = served.size > 0 ? `the app's views are ${[...served].join(', ')}` : 'the app declares no view';
      problems.push(
        `${tool.className}.${tool.methodName}: tool "${tool.name}" names view ${tool.view}, which the app does not serve (${known}): declare it in views: [view({ uri: '${tool.view}', … })] or fix the URI.`
      );
    }
  }
  for (const resource of resources) {
    if (views.has(resource.uri)) {
      problems.push(
        `${seen.get(`resource "${resource.uri}"`) ?? resource.className}: @Resource ${resource.uri} is also a view of the app: serve it one way (remove the view or the @Resource).`
      );
    }
  }
}
