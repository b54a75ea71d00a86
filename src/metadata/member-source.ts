import { ConfigurationError } from '../errors';
import type { Registry } from './registry-builder';
import type { PromptDescriptor, ResourceTemplateDescriptor } from './surface-descriptors';
import type { ToolDescriptor } from './tool-descriptor';
import type { FrontSessions } from '../types/front-sessions';
import type { TaskForwarding } from '../types/forwarded-tasks';

/**
 * Another MCP server put behind an app, as `proxy()` (from `@mcpfusion/core`) returns it: give it
 * to `FusionApp.create({ gateways: [gateway] })`, which serves its members and closes it.
 *
 * The app reads what it serves from {@link Gateway.memberSource}, so an object of your own that has
 * these fields (a {@link MemberSource} of your own as `memberSource`) is served the same way.
 */
export interface Gateway {
  /** How messages name it: `gateway desk (node main.js --stdio)`. */
  readonly label: string;
  /** The namespace its members are served under (undefined: their own names). */
  readonly namespace: string | undefined;
  /** Upstream calls waiting now for a front client's answer to their question. */
  readonly waitingQuestions: number;
  /** What the app serves of it: its members and their changes (see {@link MemberSource}); the app closes the gateway itself (`close`). */
  readonly memberSource: MemberSource;
  /** Closes the upstream connection (a spawned server is stopped) and cancels the calls waiting on it. Idempotent. */
  close(): Promise<void>;
}

/** The members a gateway serves; a value that has no {@link MemberSource} as `memberSource` is a ConfigurationError. */
export function memberSourceOf(gateway: Gateway): MemberSource {
  const source = (gateway as Partial<Gateway> | undefined)?.memberSource;
  if (typeof source?.tools !== 'function' || typeof source.subscribe !== 'function' || typeof source.close !== 'function')
    throw new ConfigurationError(
      `gateways contains ${String(gateway)}, which has no member source: pass what \`await proxy(target)\` returns.`
    );
  return source;
}

/**
 * Members an app serves that are not methods of its tool classes: a gateway's proxied tools
 * (see `src/gateway/`). The app merges them into its registry at startup and again whenever the
 * source says they changed (`subscribe`), refusing a name that clashes with another member; it
 * closes the gateway that gives it when it closes (a gateway's `close` releases its source).
 * Descriptors are built by the source, complete (no decorator records behind them).
 */
export interface MemberSource {
  /** How clash messages and logs name the source (`gateway desk (node main.js --stdio)`). */
  readonly label: string;
  /** The tools the source serves now. */
  tools(): readonly ToolDescriptor[];
  /** The resource templates it serves now (a gateway's: its upstream's templates and a catch-all route). */
  templates?(): readonly ResourceTemplateDescriptor[];
  /** The prompts it serves now. */
  prompts?(): readonly PromptDescriptor[];
  /**
   * Subscribes to changes: `listChanged()` when the source's members changed (the app rebuilds
   * its listings and tells clients), `resourceUpdated(uri)` when a resource it serves changed.
   * Returns the unsubscribe function.
   */
  subscribe(listener: MemberSourceListener): () => void;
  /** Tasks its server runs, served through the app's tasks extension (a gateway's upstream tasks). */
  readonly tasks?: TaskForwarding;
  /** Releases what the source holds (upstream connections). Idempotent. */
  close(): Promise<void>;
}

/** What a {@link MemberSource} tells the app. */
export interface MemberSourceListener {
  /** The source's members changed. */
  listChanged(): void;
  /** A resource the source serves changed (its URI as the app serves it). */
  resourceUpdated?(uri: string): void;
  /** The app's front sessions, reached outside a request (a gateway's upstream logging between calls, its roots requests, the levels set). */
  readonly sessions?: FrontSessions;
}

/**
 * The registry with the sources' members added: a tool or prompt name, or a URI template, that
 * another member (of a class or of another source) already has is refused, naming both sides,
 * as a clash between classes is.
 */
export function withSources(registry: Registry, sources: readonly MemberSource[]): Registry {
  if (sources.length === 0) return registry;
  const problems: string[] = [];
  const merge = <T>(
    own: readonly T[],
    keyOf: (member: T) => string,
    ownerOf: (member: T) => string,
    what: string,
    theirs: (source: MemberSource) => readonly T[]
  ): T[] => {
    const owners = new Map<string, string>(own.map((member) => [keyOf(member), ownerOf(member)]));
    const all = [...own];
    for (const source of sources) {
      for (const member of theirs(source)) {
        const previous = owners.get(keyOf(member));
        if (previous) {
          problems.push(
            `Duplicate ${what} "${keyOf(member)}" on ${previous} and ${source.label}: give the gateway a namespace or rename one of them.`
          );
          continue;
        }
        owners.set(keyOf(member), source.label);
        all.push(member);
      }
    }
    return all;
  };
  const classOf = (member: { className: string; methodName: string }) => `${member.className}.${member.methodName}`;
  const tools = merge(
    registry.tools,
    (tool) => tool.name,
    classOf,
    'tool name',
    (source) => source.tools()
  );
  const prompts = merge(
    registry.prompts,
    (prompt) => prompt.name,
    classOf,
    'prompt',
    (source) => source.prompts?.() ?? []
  );
  const templates = merge(
    registry.templates,
    (template) => template.uriTemplate,
    classOf,
    'resource template',
    (source) => source.templates?.() ?? []
  );
  if (problems.length > 0)
    throw new ConfigurationError(`Cannot start: ${problems.length} problem(s) with the app's members:\n- ${problems.join('\n- ')}`);
  return { ...registry, tools, prompts, templates };
}
