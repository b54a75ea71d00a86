import type { DependencyContainer } from 'tsyringe';
import { checkMounts, mergeRegistries, mountedTools, namespacedRegistry, type Mount } from '../compose/mount';
import { needsCallScope } from '../di/injection-check';
import { memberSourceOf, withSources, type MemberSource } from '../metadata/member-source';
import { buildRegistry, type Registry } from '../metadata/registry-builder';
import type { MemberHome } from '../pipeline/member-spec';
import type { ContextFactory } from '../types/context';
import type { Constructor } from '../types/core';
import { mountedViewsOf } from '../views/mounted-views';
import { describeViews, type ViewDescriptor } from '../views/view-descriptor';
import type { FusionAppOptions } from './app-options';
import { registerProvider } from './providers';
import { opaqueTokens } from './startup-checks';

/** What an app serves beside its own classes' members: its mounts (each in its home, with its views) and its gateways' members. */
export interface Composition {
  /** Each mount's home (its child container and contextFactory), by namespace: where a mounted member lives. */
  readonly homes: ReadonlyMap<string, MemberHome>;
  /** The URIs of the app's own views (its classes' tools may link to them). */
  readonly viewUris: ReadonlySet<string>;
  /** Every view served: the app's own, then each mount's under its namespace. */
  readonly views: readonly ViewDescriptor[];
  /** The gateways' member sources (their tools, resources, prompts; their upstream tasks). */
  readonly sources: readonly MemberSource[];
  /** A registry of the app's own classes with the mounts' members and the gateways' added (on every rebuild too). */
  extend(own: Registry): Registry;
}

/**
 * What the app's mounts and gateways add to it: the mounts checked and housed (each in a child
 * container of the app's, with its own providers and contextFactory: see compose/mount.ts), their
 * views under their namespaces (`ui://<namespace>/…`; a URI held twice is refused), and how a
 * registry of the app's own classes is extended with what is mounted (built once; a mounted
 * app's classes are read again on each rebuild) and with the gateways' members (read through
 * each gateway's `memberSource`).
 */
export function composition(options: FusionAppOptions<object>, container: DependencyContainer): Composition {
  const mounts = options.mounts ?? [];
  checkMounts(mounts);
  const homes: ReadonlyMap<string, MemberHome> = new Map(mounts.map((m) => [m.namespace, mountHome(container, m, options)]));
  const ownViews = describeViews(options.views);
  const viewUris = new Set(ownViews.map((view) => view.uri));
  const mountedViews = new Map(mounts.map((m) => [m, describeViews(m.views)]));
  const views = [...ownViews, ...mountedViewsOf(mountedViews, viewUris)];
  const withMounts = (own: Registry): Registry =>
    mergeRegistries(
      own,
      mounts.map((m) => ({
        namespace: m.namespace,
        registry: namespacedRegistry(m, buildRegistry(mountedTools(m), new Set(mountedViews.get(m)!.map((view) => view.uri))))
      }))
    );
  const sources = (options.gateways ?? []).map(memberSourceOf);
  return { homes, viewUris, views, sources, extend: (own) => withSources(withMounts(own), sources) };
}

/** A mount's home: a child container of the app's with the mount's providers, and its contextFactory. */
function mountHome(container: DependencyContainer, m: Mount, options: FusionAppOptions<object>): MemberHome {
  const child = container.createChildContainer();
  const providers = m.providers ?? [];
  for (const provider of providers) registerProvider(child, provider);
  const opaque = opaqueTokens({ ...options, providers: [...(options.providers ?? []), ...providers] });
  return Object.freeze({
    namespace: m.namespace,
    container: child,
    providers,
    ...(m.contextFactory ? { contextFactory: m.contextFactory as ContextFactory } : {}),
    needsCallScope: (classes: readonly Constructor[]) => needsCallScope(child, classes, opaque)
  });
}
