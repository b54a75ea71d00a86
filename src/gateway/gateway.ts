import type { ClientCapabilities, GetPromptResult, LoggingLevel, ReadResourceResult, Resource, Tool } from '@modelcontextprotocol/client';
import { ConfigurationError, UnknownResourceError } from '../errors';
import type { Gateway, MemberSource, MemberSourceListener } from '../metadata/member-source';
import type { ToolDescriptor } from '../metadata/tool-descriptor';
import type { PromptDescriptor, ResourceTemplateDescriptor } from '../metadata/surface-descriptors';
import { namespacedUri, upstreamUri } from './namespace';
import { namespaceProblem } from '../compose/namespace';
import { proxiedSurface, type ProxiedSurface } from './proxied-surface';
import { renderThroughRounds } from './proxied-prompt';
import type { InputRound } from '../interactive/require-input';
import type { CallContext } from '../types/context';
import { ParkedCalls } from './parked-calls';
import { proxiedTools, type ProxiedTools } from './proxied-tools';
import type { UpstreamCall } from './upstream-call';
import type { ProxyOptions } from './proxy-options';
import { membersOf } from './gateway-members';
import { allPages } from './pages';
import { coalesced } from './guards/relist';
import { SessionConnections, maxUpstreamSessions } from './session-connections';
import { UpstreamConnection, type ConnectionEvents } from './upstream-connection';
import type { FrontSessions } from '../types/front-sessions';
import type { UpstreamAnswer, UpstreamAsk } from './upstream-call';
import { describeTarget, type ResolvedTarget } from './upstream-target';
import { UpstreamTasks } from './tasks/upstream-tasks';

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
  private current: Promise<UpstreamConnection> | undefined;
  private listing: ProxiedTools = { descriptors: [], upstreamOf: new Map() };
  /** The upstream's tools as last listed, and those of them seen asking the front client during a call (see `proxiedTools`). */
  private upstreamTools: readonly Tool[] = [];
  private readonly asking = new Set<string>();
  /** The front sessions of the app this gateway serves (told by the app when it follows the gateway), and the end of following their levels. */
  private front: FrontSessions | undefined;
  private unfollowLevels: (() => void) | undefined;
  private surface: ProxiedSurface = { templates: [], prompts: [], promptOf: new Map() };
  /** Upstream URIs the gateway subscribed to (after a read), so their updates reach the front's subscribers. */
  private readonly subscribed = new Set<string>();
  private closed = false;
  /** Whether the upstream offered the tasks extension when last listed. */
  private offersTasks = false;
  /** Aborted on close: connections still being made are abandoned (see `UpstreamConnection.open`). */
  private readonly closing = new AbortController();
  private readonly log: (message: string) => void;

  /** Use {@link proxy}, which connects and lists before the app is made. */
  constructor(
    private readonly target: ResolvedTarget,
    private readonly options: ProxyOptions,
    private readonly hooks: ServerHooks = {}
  ) {
    const problem = options.namespace === undefined ? undefined : namespaceProblem(options.namespace);
    if (problem) throw new ConfigurationError(`proxy(): ${problem}.`);
    this.label = `gateway ${options.namespace ? `${options.namespace} ` : ''}(${describeTarget(target)})`;
    this.parked = new ParkedCalls(options.questionTimeoutMs ?? 600_000);
    this.log = options.logger ?? ((message) => process.stderr.write(`[mcpfusion gateway] ${message}\n`));
    this.sessions = new SessionConnections(
      ({ closed }, sessionId) =>
        UpstreamConnection.open(
          this.target,
          this.options.era ?? '2025',
          {
            log: this.log,
            resourceUpdated: (uri) => {
              for (const listener of this.listeners) listener.resourceUpdated?.(namespacedUri(this.options.namespace, uri));
            },
            // The shared connection lists, and hears of list changes, for all.
            toolsChanged: () => undefined,
            unreachable: (error) => this.hooks.lost?.(error),
            closed,
            ...this.sessionTraffic(sessionId)
          },
          this.closing.signal
        ).then((connection) => this.levelled(connection, this.front?.levelOf(sessionId))),
      this.options.sessionIdleMs ?? 600_000,
      maxUpstreamSessions(this.options.maxUpstreamSessions)
    );
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
    const follows = listener.sessions !== undefined && this.front === undefined;
    if (follows) {
      this.front = listener.sessions;
      this.unfollowLevels = listener.sessions!.onLevelSet((sessionId, level) => this.levelSet(sessionId, level));
    }
    return () => {
      this.listeners.delete(listener);
      if (!follows) return;
      this.unfollowLevels?.();
      this.unfollowLevels = undefined;
      this.front = undefined;
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
    const connection = await this.connection();
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
    const connection = await this.connectionFor(sessionId);
    return connection.start(name, args, front);
  }

  /** Reads an upstream resource (`uri` under the namespace); the contents' URIs are namespaced back. */
  async readResource(uri: string, signal: AbortSignal, sessionId?: string): Promise<ReadResourceResult> {
    const upstream = upstreamUri(this.options.namespace, uri) ?? uri;
    const connection = await this.connectionFor(sessionId);
    const result = await connection
      .request((client) => client.readResource({ uri: upstream }, { signal }))
      .catch((error: unknown) => {
        // The upstream's "not found" (-32602 on 2026-07-28, -32002 before) stays a not-found for the front client, in its era's form.
        const code = ((error as { cause?: { code?: unknown } }).cause ?? {}).code;
        throw code === -32602 || code === -32002 ? new UnknownResourceError(uri) : error;
      });
    // Subscribed once it is read (awaited, the first time only): its updates then reach the front clients that subscribed to it.
    if (connection.capabilities.subscribe && !this.subscribed.has(upstream)) {
      this.subscribed.add(upstream);
      await connection.watchResource(upstream).catch(() => this.subscribed.delete(upstream));
    }
    const contents = result.contents.map((content) => ({ ...content, uri: namespacedUri(this.options.namespace, content.uri) }));
    return { ...result, contents } as ReadResourceResult;
  }

  /**
   * The upstream's resources (all pages), their URIs namespaced. In a set (`proxyServers`), an
   * upstream that is down or fails to list adds none: the others' resources are still listed.
   */
  async listResources(): Promise<Resource[]> {
    if (!this.hooks.refuse) return this.upstreamResources();
    if (this.hooks.refuse()) return [];
    return this.upstreamResources().catch((error: unknown) => {
      this.log(`${this.label}: resources/list failed, listed without its resources: ${(error as Error).message}`);
      return [];
    });
  }

  private async upstreamResources(): Promise<Resource[]> {
    const connection = await this.connection();
    const resources = await connection.request((client) =>
      allPages(
        (cursor) => client.listResources(cursor),
        (page) => page.resources
      )
    );
    return resources.map((resource) => ({ ...resource, uri: namespacedUri(this.options.namespace, resource.uri) }));
  }

  /** Renders an upstream prompt (its front name) with `args`; a 2026-07-28 upstream's rounds go to the front client (see `renderThroughRounds`). */
  async renderPrompt(
    frontName: string,
    args: Record<string, string>,
    ctx: CallContext,
    signal: AbortSignal
  ): Promise<GetPromptResult | InputRound> {
    const name = this.surface.promptOf.get(frontName) ?? frontName;
    const connection = await this.connectionFor(ctx.sessionId);
    return renderThroughRounds((render) => connection.request(render), connection.modern, name, args, ctx, signal);
  }

  /** Completes an argument upstream (a prompt's, or a template's variable). */
  private async complete(
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
    argument: string,
    value: string,
    context: Readonly<Record<string, string>>
  ): Promise<string[]> {
    const connection = await this.connection();
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
    if (this.closed) return;
    this.closed = true;
    this.closing.abort();
    this.unfollowLevels?.();
    this.parked.cancelAll(new Error('The gateway closed.'));
    const current = this.current;
    this.current = undefined;
    await Promise.allSettled([current?.then((connection) => connection.close()), this.sessions.closeAll()]);
  }

  /** Front sessions with an upstream session of their own now. */
  get upstreamSessions(): number {
    return this.sessions.size;
  }

  /** The connection a front request goes through: its session's own (see `ProxyOptions.sessions`), else the shared one. */
  private connectionFor(sessionId: string | undefined): Promise<UpstreamConnection> {
    if (this.closed) return Promise.reject(new ConfigurationError(`${this.label} is closed.`));
    const refused = this.hooks.refuse?.();
    if (refused) return Promise.reject(refused);
    const own = sessionId && this.perSession ? this.sessions.open(sessionId) : undefined;
    // In a set, an upstream session that cannot be opened says the upstream is down, as the shared connection's failure does.
    if (own && this.hooks.lost)
      return own.catch((error: unknown) => {
        this.hooks.lost?.(error as Error);
        throw error;
      });
    return own ?? this.connection();
  }

  /** Whether front sessions get upstream sessions of their own (see `ProxyOptions.sessions`). */
  private get perSession(): boolean {
    const { sessions, era } = this.options;
    return (
      (sessions ?? (this.target.kind === 'http' && (era ?? '2025') === '2025' ? 'per-front-session' : 'shared')) === 'per-front-session'
    );
  }

  /** Front sessions' own upstream connections (see `ProxyOptions.sessions`). */
  private readonly sessions: SessionConnections;

  /** The open connection, or a new one (after the upstream died); a failure to connect is the caller's error, and the next try connects again. */
  private connection(): Promise<UpstreamConnection> {
    if (this.closed) return Promise.reject(new ConfigurationError(`${this.label} is closed.`));
    const refused = this.hooks.refuse?.();
    if (refused) return Promise.reject(refused);
    const reconnecting = this.current === undefined && this.listing.descriptors.length > 0;
    this.current ??= UpstreamConnection.open(
      this.target,
      this.options.era ?? '2025',
      {
        log: this.log,
        resourceUpdated: (uri) => {
          for (const listener of this.listeners) listener.resourceUpdated?.(namespacedUri(this.options.namespace, uri));
        },
        toolsChanged: this.relist,
        unreachable: (error) => this.hooks.lost?.(error),
        ...this.sharedTraffic(),
        closed: (reason) => {
          this.current = undefined;
          this.subscribed.clear();
          this.parked.cancelAll(reason);
          if (this.hooks.lost) this.hooks.lost(reason);
          else this.log(`upstream ${describeTarget(this.target)}: ${reason.message}; reconnecting on the next call.`);
        }
      },
      this.closing.signal
    )
      .then((connection) => this.levelled(connection, this.front?.lowestLevel()))
      .catch((error: unknown) => {
        this.current = undefined;
        this.hooks.lost?.(error as Error);
        throw error;
      });
    // A reconnected upstream may serve other tools than the one that died: listed again, once connected.
    if (reconnecting) void this.current.then(() => this.refresh()).catch(() => undefined);
    return this.current;
  }

  /**
   * What a front session's own upstream connection sends outside its calls: its log messages go
   * to that front session alone (at the session's level), and its roots request is answered with
   * that session's roots (the front client is asked), or refused saying why. A roots request with
   * no call's context is the session's whatever call is in flight (one at the upstream's start
   * often comes during the call that opened the connection): it is not given to that call.
   */
  private sessionTraffic(sessionId: string): Pick<ConnectionEvents, 'logged' | 'outsideCall'> {
    return {
      logged: (message) => this.front?.log(message, sessionId),
      outsideCall: (ask) => {
        if (ask.method !== 'roots/list') return undefined;
        const front = this.front;
        if (!front) return Promise.resolve(refusedRoots('the gateway serves no front app yet'));
        return front.listRoots(sessionId, this.closing.signal).then(
          (result): UpstreamAnswer => ({ result: result as unknown as Record<string, unknown> }),
          (error: unknown) => {
            this.log(`${this.label}: a roots request outside a call was refused: ${(error as Error).message}.`);
            return refusedRoots((error as Error).message);
          }
        );
      }
    };
  }

  /**
   * What the shared connection sends outside its calls. Its log messages go to every front
   * session it serves, each at its own level (all of them; with upstreams per front session, those
   * without a session id); one that came while several calls were in flight over stdio may be one
   * of theirs, and is dropped rather than shown to the others. A roots request is refused: the
   * connection serves every front session, and no one session's roots may stand for the others'
   * (an upstream per front session gets its own).
   */
  private sharedTraffic(): Pick<ConnectionEvents, 'logged' | 'outsideCall'> {
    return {
      logged: (message, ambiguous) => {
        // With upstreams per front session, the shared one serves only the front sessions without an id (stdio).
        if (!ambiguous) this.front?.log(message, this.perSession ? null : undefined);
      },
      outsideCall: (ask: UpstreamAsk, why) => {
        // Before a guess (`why` undefined), the one call in flight over stdio may be the asker: it gets it.
        if (ask.method !== 'roots/list' || why === undefined) return undefined;
        const reason = 'the upstream connection is shared by every front session, so no one front client can answer for the others';
        this.log(`${this.label}: a roots request outside a call was refused: ${reason}.`);
        return Promise.resolve(
          refusedRoots(`${reason} (proxy({ sessions: 'per-front-session' }) gives each 2025-era front session its own)`)
        );
      }
    };
  }

  /**
   * A front session set its log level: forwarded to its own upstream connection (opened for it:
   * what its upstream logs between calls is for it), else to the shared one as the lowest level
   * any front session set (each front session's own level filters what it gets).
   */
  private levelSet(sessionId: string | undefined, level: LoggingLevel): void {
    const failed = (error: unknown) => this.log(`${this.label}: logging/setLevel upstream failed: ${(error as Error).message}`);
    if (this.closed || this.hooks.refuse?.()) return;
    if (sessionId !== undefined && this.perSession) {
      this.connectionFor(sessionId)
        .then((connection) => connection.setLevel(level))
        .catch(failed);
      return;
    }
    const lowest = this.front?.lowestLevel();
    if (lowest && this.current) this.current.then((connection) => connection.setLevel(lowest)).catch(failed);
  }

  /** A connection just opened, told the level it must log at where one was set (not awaited: the request goes out first all the same). */
  private levelled(connection: UpstreamConnection, level: LoggingLevel | undefined): UpstreamConnection {
    if (level)
      connection
        .setLevel(level)
        .catch((error: unknown) => this.log(`${this.label}: logging/setLevel upstream failed: ${(error as Error).message}`));
    return connection;
  }
  /** The upstream's tasks its tools' calls created, as the app's tasks extension serves them. */
  readonly tasks = new UpstreamTasks({
    label: () => this.label,
    offersTasks: () => this.offersTasks,
    serves: (toolName) => this.listing.upstreamOf.has(toolName),
    connection: () => this.connection()
  });

  /** Lists again on the upstream's `list_changed`: one listing at a time, however many notices (see guards/relist.ts). */
  private readonly relist = coalesced(
    () => this.refresh(),
    (error: unknown) => this.log(`relisting failed: ${(error as Error).message}`)
  );

  /** What every proxied tool's descriptor names as its class: one per gateway, its method forwarding to this gateway. */
  private readonly members = membersOf(this);
}

/**
 * How a set of upstreams (`proxyServers`) follows one of its servers: told when its connection is
 * lost (or cannot be made), and asked before each request whether the upstream is known down (then
 * the request fails at once with that error instead of waiting for a connection).
 */
export interface ServerHooks {
  readonly lost?: (reason: Error) => void;
  readonly refuse?: () => Error | undefined;
}

/** A roots request outside a call, refused with the reason. */
function refusedRoots(why: string): UpstreamAnswer {
  return { refused: `The gateway cannot answer roots/list outside a tool call: ${why}.` };
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
