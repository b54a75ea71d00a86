import type { ClientCapabilities, GetPromptResult, ReadResourceResult, Resource, Tool } from '@modelcontextprotocol/client';
import { ConfigurationError } from '../errors';
import type { Gateway, MemberSource, MemberSourceListener } from '../metadata/member-source';
import type { ToolDescriptor } from '../metadata/tool-descriptor';
import type { PromptDescriptor, ResourceTemplateDescriptor } from '../metadata/surface-descriptors';
import { namespacedUri } from './namespace';
import { namespaceProblem } from '../compose/namespace';
import { proxiedSurface, type ProxiedSurface } from './proxied-surface';
import { renderThroughRounds } from './proxied-prompt';
import type { InputRound } from '../interactive/require-input';
import type { InputScope } from '../interactive/input-scope';
import type { CallContext } from '../types/context';
import { ParkedCalls } from './parked-calls';
import { proxiedTools, type ProxiedTools } from './proxied-tools';
import type { UpstreamCall } from './upstream-call';
import type { ProxyOptions } from './proxy-options';
import { membersOf } from './gateway-members';
import { allPages } from './pages';
import { coalesced } from './guards/relist';
import { describeTarget, type ResolvedTarget } from './upstream-target';
import { UpstreamTasks } from './tasks/upstream-tasks';
import { GatewayConnections, type ServerHooks } from './gateway-connections';
import { FrontTraffic } from './front-traffic';
import { ProxiedResources } from './proxied-resources';

export type { ServerHooks } from './gateway-connections';

/**
 * A server behind the app (made by `proxy`, `proxy.ts`). It holds the connection to the upstream
 * (reconnected on the next call after the upstream dies), the listing it serves (refreshed
 * when the upstream says its tools changed, or on reconnecting), and the calls parked on an
 * upstream question. The app it is given to closes it.
 */
export class ProxiedServer implements Gateway, MemberSource {
  /** How messages name it: `gateway desk (node main.js --stdio)`. */
  readonly label: string;
  /** Calls waiting for the user's answer to an upstream question. */
  readonly parked: ParkedCalls;
  /** It is its own member source (what the app reads through `Gateway.memberSource`). */
  readonly memberSource: MemberSource = this;
  private readonly listeners = new Set<MemberSourceListener>();
  private listing: ProxiedTools = { descriptors: [], upstreamOf: new Map() };
  /** The upstream's tools as last listed, and those of them seen asking the front client during a call (see `proxiedTools`). */
  private upstreamTools: readonly Tool[] = [];
  private readonly asking = new Set<string>();
  private surface: ProxiedSurface = { templates: [], prompts: [], promptOf: new Map() };
  /** Whether the upstream offered the tasks extension when last listed. */
  private offersTasks = false;
  private readonly log: (message: string) => void;
  /** The shared upstream connection and the front sessions' own, and which one a request goes through. */
  private readonly connections: GatewayConnections;
  /** What passes between the upstream and the front sessions outside calls (log messages, roots, levels). */
  private readonly traffic: FrontTraffic;
  private readonly resources: ProxiedResources;

  /** Use {@link proxy}, which connects and lists before the app is made. */
  constructor(
    target: ResolvedTarget,
    private readonly options: ProxyOptions,
    hooks: ServerHooks = {}
  ) {
    const problem = options.namespace === undefined ? undefined : namespaceProblem(options.namespace);
    if (problem) throw new ConfigurationError(`proxy(): ${problem}.`);
    this.label = `gateway ${options.namespace ? `${options.namespace} ` : ''}(${describeTarget(target)})`;
    this.parked = new ParkedCalls(options.questionTimeoutMs ?? 600_000);
    this.log = options.logger ?? ((message) => process.stderr.write(`[mcpfusion gateway] ${message}\n`));
    this.connections = new GatewayConnections(target, options, this.label, this.log, hooks, {
      events: (sessionId) => ({
        resourceUpdated: (uri) => {
          for (const listener of this.listeners) listener.resourceUpdated?.(namespacedUri(this.options.namespace, uri));
        },
        // The shared connection lists, and hears of list changes, for all.
        toolsChanged: sessionId === undefined ? this.relist : () => undefined,
        ...this.traffic.events(sessionId)
      }),
      opened: (connection, sessionId) => this.traffic.levelled(connection, sessionId),
      // A reconnected upstream may serve other tools than the one that died: listed again, once connected.
      sharedOpening: (connection) => {
        if (this.listing.descriptors.length > 0) void connection.then(() => this.refresh()).catch(() => undefined);
      },
      sharedClosed: (reason) => {
        this.resources.forgetSubscriptions();
        this.parked.cancelAll(reason);
      }
    });
    this.traffic = new FrontTraffic(this.label, this.log, this.connections);
    this.resources = new ProxiedResources({
      namespace: options.namespace,
      label: this.label,
      log: this.log,
      hooks,
      connectionFor: (sessionId) => this.connections.connectionFor(sessionId),
      shared: () => this.connections.shared()
    });
  }

  /** Upstream calls waiting now for a front client's answer. */
  get waitingQuestions(): number {
    return this.parked.size;
  }

  /** The namespace its members are served under (undefined: their own names). */
  get namespace(): string | undefined {
    return this.options.namespace;
  }

  /** The proxied tools, as the app compiles them. */
  tools(): readonly ToolDescriptor[] {
    return this.listing.descriptors;
  }

  /** The proxied resource templates (the catch-all route first), as the app compiles them. */
  templates(): readonly ResourceTemplateDescriptor[] {
    return this.surface.templates;
  }

  /** The proxied prompts, as the app compiles them. */
  prompts(): readonly PromptDescriptor[] {
    return this.surface.prompts;
  }

  /** See {@link MemberSource.subscribe}. The app's front sessions (`listener.sessions`) get what the upstream sends outside calls. */
  subscribe(listener: MemberSourceListener): () => void {
    this.listeners.add(listener);
    const unfollow = listener.sessions && this.traffic.follow(listener.sessions);
    return () => {
      this.listeners.delete(listener);
      unfollow?.();
    };
  }

  /**
   * A proxied tool asked the front client something during a call: from now on it is listed as
   * interactive (see `proxiedTools`), and the app is told its list changed.
   */
  asked(frontName: string): void {
    const name = this.listing.upstreamOf.get(frontName);
    if (name === undefined || this.asking.has(name)) return;
    this.asking.add(name);
    this.listing = proxiedTools(this.upstreamTools, this.members, this.options, this.label, () => undefined, this.asking);
    for (const listener of this.listeners) listener.listChanged();
  }

  /** Lists the upstream's tools again; the app is told when the listing changed. */
  async refresh(): Promise<void> {
    const connection = await this.connections.shared();
    const tools = await connection.listTools();
    const next = proxiedTools(tools, this.members, this.options, this.label, this.log, this.asking);
    const offers = connection.capabilities;
    this.offersTasks = connection.offersTasks;
    const templates = offers.resources
      ? await connection.request((client) =>
          allPages(
            (cursor) => client.listResourceTemplates(cursor),
            (page) => page.resourceTemplates
          )
        )
      : undefined;
    const prompts = offers.prompts
      ? await connection.request((client) =>
          allPages(
            (cursor) => client.listPrompts(cursor),
            (page) => page.prompts
          )
        )
      : undefined;
    const scopes = Array.isArray(this.options.scopes) ? this.options.scopes : [];
    const surface = proxiedSurface(
      this.options.namespace,
      templates,
      prompts,
      {
        members: this.members,
        label: this.label,
        scopes,
        ...(this.options.timeoutMs !== undefined ? { timeoutMs: this.options.timeoutMs } : {})
      },
      offers.completions ? (ref, argument) => (value, context) => this.complete(ref, argument, value, context.arguments) : undefined
    );
    const changed =
      JSON.stringify(next.descriptors.map(listed)) !== JSON.stringify(this.listing.descriptors.map(listed)) ||
      JSON.stringify(surfaceListed(surface)) !== JSON.stringify(surfaceListed(this.surface));
    this.listing = next;
    this.upstreamTools = tools;
    this.surface = surface;
    if (changed) for (const listener of this.listeners) listener.listChanged();
  }

  /** Starts a proxied call upstream (see `forwardCall`). */
  async start(frontName: string, args: Record<string, unknown>, sessionId?: string, front?: ClientCapabilities): Promise<UpstreamCall> {
    const name = this.listing.upstreamOf.get(frontName) ?? frontName;
    const connection = await this.connections.connectionFor(sessionId);
    return connection.start(name, args, front);
  }

  /** Reads an upstream resource (`uri` under the namespace); the contents' URIs are namespaced back. */
  readResource(uri: string, signal: AbortSignal, sessionId?: string): Promise<ReadResourceResult> {
    return this.resources.read(uri, signal, sessionId);
  }

  /** The upstream's resources, their URIs namespaced (see `ProxiedResources.list`). */
  listResources(): Promise<Resource[]> {
    return this.resources.list();
  }

  /** Renders an upstream prompt (its front name) with `args`; a 2026-07-28 upstream's rounds go to the front client (see `renderThroughRounds`). */
  async renderPrompt(
    frontName: string,
    args: Record<string, string>,
    ctx: CallContext,
    signal: AbortSignal,
    scope: InputScope
  ): Promise<GetPromptResult | InputRound> {
    const name = this.surface.promptOf.get(frontName) ?? frontName;
    const connection = await this.connections.connectionFor(ctx.sessionId);
    return renderThroughRounds((render) => connection.request(render), connection.modern, name, args, ctx, signal, scope);
  }

  /** Completes an argument upstream (a prompt's, or a template's variable). */
  private async complete(
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
    argument: string,
    value: string,
    context: Readonly<Record<string, string>>
  ): Promise<string[]> {
    const connection = await this.connections.shared();
    const result = await connection.request((client) =>
      client.complete({
        ref,
        argument: { name: argument, value },
        ...(Object.keys(context).length > 0 ? { context: { arguments: { ...context } } } : {})
      })
    );
    return result.completion.values;
  }

  /** Closes the upstream connection and cancels the calls parked on it. Idempotent. */
  async close(): Promise<void> {
    if (this.connections.isClosed) return;
    // Closed first (at once): connections still being made are abandoned, and no new one is opened.
    const closing = this.connections.close();
    this.traffic.stop();
    this.parked.cancelAll(new Error('The gateway closed.'));
    await closing;
  }

  /** Front sessions with an upstream session of their own now. */
  get upstreamSessions(): number {
    return this.connections.upstreamSessions;
  }

  /** The upstream's tasks its tools' calls created, as the app's tasks extension serves them. */
  readonly tasks = new UpstreamTasks({
    label: () => this.label,
    offersTasks: () => this.offersTasks,
    serves: (toolName) => this.listing.upstreamOf.has(toolName),
    connection: () => this.connections.shared()
  });

  /** Lists again on the upstream's `list_changed`: one listing at a time, however many notices (see guards/relist.ts). */
  private readonly relist = coalesced(
    () => this.refresh(),
    (error: unknown) => this.log(`relisting failed: ${(error as Error).message}`)
  );

  /** What every proxied tool's descriptor names as its class: one per gateway, its method forwarding to this gateway. */
  private readonly members = membersOf(this);
}

/** What the resources and prompts list (whether a relisting changed anything). */
function surfaceListed(surface: ProxiedSurface): unknown {
  return [
    surface.templates.map((t) => [t.uriTemplate, t.name, t.description]),
    surface.prompts.map((p) => [p.name, p.description, p.listedArguments])
  ];
}

/** What a descriptor lists (whether a relisting changed anything). */
function listed(descriptor: ToolDescriptor): unknown {
  return [
    descriptor.name,
    descriptor.description,
    descriptor.title,
    descriptor.annotations,
    descriptor.schemas,
    descriptor.scopes,
    descriptor.listed
  ];
}
