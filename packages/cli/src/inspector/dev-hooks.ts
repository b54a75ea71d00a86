import type { DevCallTimings, DevReload } from './inspector-protocol';

/**
 * What `mcpfusion dev` may give the inspector about the project it serves. All optional: the
 * inspector shows its dev panel (each member's compiled chain, each call's stage timings, the
 * reloads and their compile errors) only when hooks are given.
 *
 * @example
 * ```ts
 * const inspector = await startInspector({
 *   target: { kind: 'http', url: mcpUrl },
 *   devHooks: { describeChain: (kind, name) => app.describeChain(kind, name), onReload: (listener) => reloader.on(listener) }
 * });
 * ```
 */
export interface InspectorDevHooks {
  /** The compiled chain of a tool, prompt or resource, one stage per line; undefined when unknown. */
  describeChain?(kind: 'tool' | 'prompt' | 'resource', name: string): readonly string[] | undefined;
  /** Calls `listener` after each reload (or failed compile); returns the unsubscribe. */
  onReload?(listener: (reload: DevReload) => void): () => void;
  /** Calls `listener` with each call's stage timings; returns the unsubscribe. */
  onCallTimings?(listener: (timings: DevCallTimings) => void): () => void;
}
