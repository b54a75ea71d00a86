/**
 * The inspector in the browser: `mcpfusion inspector`, and what `mcpfusion dev` mounts.
 * {@link startInspector} starts one programmatically.
 */
export { startInspector, type InspectorOptions, type RunningInspector } from './start-inspector';
export type { InspectorDevHooks } from './dev-hooks';
export type { DevCallTimings, DevReload, EraName } from './inspector-protocol';
export { parseInspector, runInspector, INSPECTOR_USAGE, type InspectorCommand } from './inspector-command';
