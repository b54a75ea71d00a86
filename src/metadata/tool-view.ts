import type { ViewVisibility } from '../types/display';

/** The scheme every view's URI has (MCP Apps reserves it). */
export const VIEW_SCHEME = 'ui://';

/** The `_meta` keys a tool's view and visibility are listed under, which a tool's own `_meta` may not set. */
export const TOOL_VIEW_META_KEYS: ReadonlyMap<string, string> = new Map([
  ['ui', "declare it with the tool's view and visibility options"],
  ['ui/resourceUri', "declare it with the tool's view option"]
]);

/** A tool's view and visibility, as checked. */
export interface ToolViewFields {
  readonly view?: string;
  readonly visibility?: readonly ViewVisibility[];
}

/** The `view` and `visibility` options of a tool, checked (whether the view exists is checked once every member is known). */
export function toolViewOf(where: string, view: unknown, visibility: unknown, problems: string[]): ToolViewFields {
  const before = problems.length;
  if (view !== undefined && (typeof view !== 'string' || !view.startsWith(VIEW_SCHEME) || view.length === VIEW_SCHEME.length)) {
    problems.push(
      `${where}: view ${JSON.stringify(view)} is not a view's URI: name a ui:// URI the app declares in views (ui://billing/desk).`
    );
  }
  const values = Array.isArray(visibility) ? (visibility as unknown[]) : undefined;
  if (
    visibility !== undefined &&
    !(values && values.length > 0 && values.every((v) => v === 'model' || v === 'app') && new Set(values).size === values.length)
  ) {
    problems.push(`${where}: visibility must be ['model', 'app'], ['model'] or ['app'] (got ${JSON.stringify(visibility)}).`);
  }
  if (problems.length > before) return {};
  return Object.freeze({
    ...(typeof view === 'string' ? { view } : {}),
    ...(values ? { visibility: Object.freeze([...(values as ViewVisibility[])]) } : {})
  });
}

/**
 * What a tool's listing carries for MCP Apps hosts: `_meta.ui` with `resourceUri` and
 * `visibility` (default `['model', 'app']` where it has a view), and the deprecated flat
 * `ui/resourceUri` key for hosts that read only that. Nothing for a tool with neither.
 */
export function toolViewMeta(fields: ToolViewFields): Record<string, unknown> | undefined {
  if (!fields.view && !fields.visibility) return undefined;
  const visibility = fields.visibility ?? ['model', 'app'];
  return {
    ui: { ...(fields.view ? { resourceUri: fields.view } : {}), visibility: [...visibility] },
    ...(fields.view ? { 'ui/resourceUri': fields.view } : {})
  };
}
