import { ConfigurationError } from '../errors';
import type { Registry } from './registry-builder';
import type { ToolDescriptor } from './tool-descriptor';

/**
 * Members an app serves that are not methods of its tool classes: a gateway's proxied tools
 * (see `src/gateway/`). The app merges them into its registry at startup and again whenever the
 * source says they changed (`onChange`), refusing a name that clashes with another member; it
 * closes the source when it closes. Descriptors are built by the source, complete (no decorator
 * records behind them).
 */
export interface MemberSource {
  /** How clash messages and logs name the source (`gateway desk (node main.js --stdio)`). */
  readonly label: string;
  /** The tools the source serves now. */
  tools(): readonly ToolDescriptor[];
  /**
   * Subscribes to changes: `listChanged()` when the source's members changed (the app rebuilds
   * its listings and tells clients), `resourceUpdated(uri)` when a resource it serves changed.
   * Returns the unsubscribe function.
   */
  subscribe(listener: MemberSourceListener): () => void;
  /** Releases what the source holds (upstream connections). Idempotent. */
  close(): Promise<void>;
}

/** What a {@link MemberSource} tells the app. */
export interface MemberSourceListener {
  /** The source's members changed. */
  listChanged(): void;
  /** A resource the source serves changed (its URI as the app serves it). */
  resourceUpdated?(uri: string): void;
}

/**
 * The registry with the sources' members added: a name that another member (of a class or of
 * another source) already has is refused, naming both sides, as a clash between classes is.
 */
export function withSources(registry: Registry, sources: readonly MemberSource[]): Registry {
  if (sources.length === 0) return registry;
  const owners = new Map<string, string>(registry.tools.map((tool) => [tool.name, `${tool.className}.${tool.methodName}`]));
  const problems: string[] = [];
  const tools = [...registry.tools];
  for (const source of sources) {
    for (const tool of source.tools()) {
      const previous = owners.get(tool.name);
      if (previous) {
        problems.push(
          `Duplicate tool name "${tool.name}" on ${previous} and ${source.label}: give the gateway a namespace or rename one of them.`
        );
        continue;
      }
      owners.set(tool.name, source.label);
      tools.push(tool);
    }
  }
  if (problems.length > 0)
    throw new ConfigurationError(`Cannot start: ${problems.length} problem(s) with the app's members:\n- ${problems.join('\n- ')}`);
  return { ...registry, tools };
}
