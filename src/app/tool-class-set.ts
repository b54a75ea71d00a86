import { buildRegistry, type Registry } from '../metadata/registry-builder';
import type { Constructor } from '../types/core';
import type { Catalogs } from './member-router';

/** Which listings a change of tool classes changed (what clients get `list_changed` for). */
export interface ListChanges {
  /** `tools/list` changed (`notifications/tools/list_changed` was sent). */
  readonly tools: boolean;
  /** `resources/list` or `resources/templates/list` changed, or may have (a template lists its own). */
  readonly resources: boolean;
  /** `prompts/list` changed. */
  readonly prompts: boolean;
}

/**
 * The app's tool classes (the `tools` option, `addTools`, `removeTools`) and the catalogs built
 * from them. A change (add, remove) builds and checks the whole new set first (`validate` may
 * refuse it: the app is then unchanged), swaps the catalogs in one step, and says which
 * listings changed.
 */
export class ToolClassSet {
  private current: { classes: readonly Constructor[]; registry: Registry; catalogs: Catalogs };

  /** `registry` is the first set's, built from `classes` and validated already (the chains' dependencies depend on it). */
  constructor(
    classes: readonly Constructor[],
    registry: Registry,
    private readonly build: (registry: Registry) => Catalogs,
    private readonly validate: (registry: Registry) => void,
    /** The URIs of the app's views, which tools may name (fixed for the app's life). */
    private readonly views: ReadonlySet<string> = new Set(),
    /** Adds what is mounted (fixed for the app's life) to a registry of the app's own classes. */
    private readonly extend: (own: Registry) => Registry = (own) => own
  ) {
    this.current = { classes: [...classes], registry, catalogs: build(registry) };
  }

  get classes(): readonly Constructor[] {
    return this.current.classes;
  }

  get registry(): Registry {
    return this.current.registry;
  }

  get catalogs(): Catalogs {
    return this.current.catalogs;
  }

  /** Replaces the set; calls in flight keep the members they started with. */
  replace(classes: readonly Constructor[]): ListChanges {
    const registry = this.extend(buildRegistry(classes, this.views));
    this.validate(registry);
    const before = this.current.catalogs;
    const catalogs = this.build(registry);
    this.current = { classes: [...classes], registry, catalogs };
    return {
      tools: JSON.stringify(before.tools.listing) !== JSON.stringify(catalogs.tools.listing),
      resources: before.resources.size !== 0 || catalogs.resources.size !== 0,
      prompts: JSON.stringify(before.prompts.listing) !== JSON.stringify(catalogs.prompts.listing)
    };
  }
}
