import type { ProviderSpec } from '../types/provider';
import { ConfigurationError } from '../errors';
import type { Registry } from '../metadata/registry-builder';
import type { Constructor } from '../types/core';
import type { Middleware } from '../types/middleware';
import type { RequestExtra } from '../types/context';
import type { PresenterRef } from '../types/presenter';
import type { ViewOptions } from '../types/view-options';
import { namespacedName, namespacedUri, namespacedViewUri, namespaceProblem } from './namespace';

/**
 * What is mounted under a namespace (`FusionApp.create({ mounts: [...] })`): tool classes with
 * their own middleware, default presenter and providers, served by the parent app under the
 * naming rule of `namespace.ts` (tools and prompts `<namespace>.<name>`, resources and templates
 * `<namespace>+<scheme>:<rest>`).
 */
export interface Mount {
  /** The namespace: a lowercase letter, then up to 63 lowercase letters, digits or `-` (it heads URI schemes). */
  readonly namespace: string;
  /** The mounted tool classes (their tools, resources, templates, prompts and completers). */
  readonly tools: readonly Constructor[];
  /** Middleware of every mounted member, run inside the parent's global middleware, before class and method middleware. */
  readonly middleware?: readonly Middleware[];
  /** The presenter of mounted tools that name none. Default: the parent's. */
  readonly presenter?: PresenterRef;
  /**
   * Services the mounted classes need, registered in the mount's own container: a child of the
   * parent's, so the mounted classes also resolve what the parent provides, and a token the mount
   * provides is its own (two mounts may provide the same class with different settings).
   */
  readonly providers?: readonly ProviderSpec[];
  /**
   * Views (MCP Apps) of the mounted tools, served by the parent at `ui://<namespace>/<rest>` (a
   * mounted app's own `views`); the mounted tools' view links are rewritten to match.
   */
  readonly views?: readonly ViewOptions[];
  /** Makes the per-call context of the mounted members (a mounted app's own `contextFactory`). Default: the parent's. */
  readonly contextFactory?: (extra: RequestExtra) => object | undefined | Promise<object | undefined>;
  /** The app mounted, when an app is: its tool classes are read again whenever they change (its list changes merged). */
  readonly app?: MountableApp;
}

/** What an app gives to be mounted (a FusionApp is one): its parts as created, and word of its tool classes' changes. */
export interface MountableApp {
  /** Its tool classes now, its middleware, default presenter and providers. */
  readonly mountable: Omit<Mount, 'namespace' | 'app'>;
  /** Calls `listener` after each change of its tool classes (`addTools`, `removeTools`); returns the unsubscribe. */
  onToolsChanged(listener: () => void): () => void;
  /** Calls `listener` with each URI it is told changed (`notifyResourceUpdated`); returns the unsubscribe. */
  onResourceUpdated(listener: (uri: string) => void): () => void;
}

/**
 * Mounts tool classes, or a whole app's tool classes (with its middleware, presenter and
 * providers), under a namespace. One compiled chain per mounted member, in the parent's
 * machinery: the parent's global middleware around the mount's own, the parent's queue,
 * mutation lock (keyed mutations keep their keys), auth scopes and telemetry; presenters and
 * scopes as declared. A name or URI that clashes with another member is refused at startup,
 * naming both.
 *
 * @example
 * ```ts
 * const app = FusionApp.create({ tools: [ReportTools], mounts: [mount('desk', { tools: [BillingTools] })] });
 * // tools/list: report.generate, desk.billing.refund, …; resources: desk+billing://invoices/{id}
 * ```
 */
export function mount(namespace: string, source: MountableApp | Omit<Mount, 'namespace' | 'app'>): Mount {
  if ('mountable' in source) return Object.freeze({ ...source.mountable, namespace, app: source });
  return Object.freeze({ ...source, namespace });
}

/** The tool classes a mount serves now (a mounted app's as they are now). */
export function mountedTools(m: Mount): readonly Constructor[] {
  return m.app ? m.app.mountable.tools : m.tools;
}

/** Checks the mounts' namespaces (valid, each once); every problem at once. */
export function checkMounts(mounts: readonly Mount[]): void {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const m of mounts) {
    const problem = namespaceProblem(m?.namespace);
    if (problem) problems.push(`mount: ${problem}`);
    else if (seen.has(m.namespace)) problems.push(`mount: namespace ${m.namespace} is mounted twice`);
    seen.add(m?.namespace);
    if (!Array.isArray(m?.tools)) problems.push(`mount ${m?.namespace}: tools must be an array of tool classes`);
  }
  if (problems.length > 0) throw new ConfigurationError(`Invalid mounts:\n${problems.map((p) => `- ${p}`).join('\n')}`);
}

/**
 * A mount's registry under its namespace: names and URIs rewritten, its middleware and presenter
 * given to its members, each marked as the mount's (`mountedUnder`: it lives in the mount's
 * container and uses its contextFactory, which the app keeps by namespace).
 */
export function namespacedRegistry(m: Mount, own: Registry): Registry {
  const middleware = m.middleware ?? [];
  const around = <T extends { readonly middleware: readonly Middleware[] }>(d: T): T =>
    middleware.length > 0 ? { ...d, middleware: [...middleware, ...d.middleware] } : d;
  return {
    tools: own.tools.map((d) =>
      Object.freeze({
        ...around(d),
        name: namespacedName(m.namespace, d.name),
        mountedUnder: m.namespace,
        ...(d.view ? { view: namespacedViewUri(m.namespace, d.view) } : {}),
        ...(d.presenter || !m.presenter ? {} : { presenter: m.presenter })
      })
    ),
    prompts: own.prompts.map((d) => Object.freeze({ ...around(d), name: namespacedName(m.namespace, d.name), mountedUnder: m.namespace })),
    resources: own.resources.map((d) => Object.freeze({ ...around(d), uri: namespacedUri(m.namespace, d.uri), mountedUnder: m.namespace })),
    templates: own.templates.map((d) =>
      Object.freeze({ ...around(d), uriTemplate: namespacedUri(m.namespace, d.uriTemplate), mountedUnder: m.namespace })
    )
  };
}

/** A registry and the mounted ones as one; a name or URI held twice is refused, naming both sides. */
export function mergeRegistries(own: Registry, mounted: readonly { namespace: string; registry: Registry }[]): Registry {
  if (mounted.length === 0) return own;
  const problems: string[] = [];
  const holders = new Map<string, string>();
  const claim = (key: string, where: string) => {
    const previous = holders.get(key);
    if (previous) problems.push(`${key} is both ${previous} and ${where}: rename one, or mount under another namespace`);
    else holders.set(key, where);
  };
  const merged: Registry = { tools: [], resources: [], templates: [], prompts: [] };
  const add = (registry: Registry, side: string) => {
    for (const d of registry.tools) claim(`tool ${d.name}`, `${d.className}.${d.methodName}${side}`);
    for (const d of registry.prompts) claim(`prompt ${d.name}`, `${d.className}.${d.methodName}${side}`);
    for (const d of registry.resources) claim(`resource ${d.uri}`, `${d.className}.${d.methodName}${side}`);
    for (const d of registry.templates) claim(`resource template ${d.uriTemplate}`, `${d.className}.${d.methodName}${side}`);
    merged.tools.push(...registry.tools);
    merged.prompts.push(...registry.prompts);
    merged.resources.push(...registry.resources);
    merged.templates.push(...registry.templates);
  };
  add(own, ' (the app)');
  for (const m of mounted) add(m.registry, ` (mounted under ${m.namespace})`);
  if (problems.length > 0) throw new ConfigurationError(`Name clash between mounted members:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  return merged;
}
