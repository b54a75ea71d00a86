import type { CallToolResult, McpServerFactory, Tool, Transport } from '@modelcontextprotocol/server';
import type { DependencyContainer } from 'tsyringe';
import { AppClosedError, ConfigurationError } from '../errors';
import type { ToolDescriptor } from '../metadata/tool-descriptor';
import type { FusionHttpHandler, HttpHandlerOptions } from '../transports/http/fusion-http-handler';
import type { CallKind, Constructor } from '../types/core';
import type { Mount } from '../compose/mount';
import type { DirectCallOptions } from '../types/harness';
import type { FusionAppOptions, ListenOptions } from './app-options';
import { assembleApp, type AppParts, type ServingParts } from './assemble';
import { adoptedDefinition, assertAdoptable, RetiredDefinitions } from './definition-swap';
import { ChangeRelay } from './change-relay';
import { callByName, chainOf } from './direct-calls';
import { HttpEndpoints } from './http-endpoints';
import { CurrentRouter } from './current-router';
import { changedLists } from './definition-changes';
import { listenOn, ProcessSignals, type Closable, type Listening } from './listen';
import type { ListChanges } from './tool-class-set';

/**
 * An MCP server application: the composition root. `create` wires its parts once (see
 * `assembleApp`: the container, one compiled chain per tool, resource, prompt and completer,
 * the engine, the transports); the app then serves them, changes its tool classes at run time,
 * and shuts down. Everything else lives in those parts.
 *
 * @example
 * ```ts
 * const app = FusionApp.create({ tools: [BillingTools], providers: [{ provide: Database, useValue: db }] });
 * await app.listen({ transport: 'http', port: 3000 });
 * ```
 */
export class FusionApp {
  /** The SDK server factory (for `createMcpHandler`, `serveStdio`, or your own HTTP framework). */
  readonly serverFactory: McpServerFactory;
  /** The server's own diagnostics: the `logger` option, else stderr (never stdout, the stdio transport). */
  private readonly log = (message: string): void =>
    (this.options.logger ?? ((m: string) => process.stderr.write(`[mcpfusion] ${m}\n`)))(message);
  /** The definition served now: replaced as a whole by {@link FusionApp.adopt}. */
  private parts: AppParts;
  /** What every definition is served through (made with the first, kept by `adopt`). */
  private readonly front = new CurrentRouter(() => this.parts.router);
  private readonly serving: ServingParts;
  /** Definitions replaced by `adopt` whose calls have not all ended yet, and their release. */
  private readonly retired = new RetiredDefinitions(this.log);
  private readonly httpHandlers: HttpEndpoints;
  private readonly listeners: Closable[] = [];
  private readonly signals = new ProcessSignals(() => this.close(), this.log);
  private closing: Promise<void> | undefined;
  /** Follows the apps mounted into this one and the gateways; tells the apps this one is mounted into. */
  private readonly relay: ChangeRelay;

  private constructor(private options: FusionAppOptions<object>) {
    this.parts = assembleApp(options, this, this.log, { front: this.front });
    this.serving = this.parts;
    this.serverFactory = this.parts.serverFactory;
    this.httpHandlers = new HttpEndpoints(this.serverFactory, this.front, options.bus, () => this.parts, this.log);
    this.relay = new ChangeRelay(options.mounts ?? [], options.gateways ?? [], {
      rebuild: () => this.replaceTools([...this.parts.toolClasses.classes]),
      resourceUpdated: (uri) => this.parts.notifier.resourceUpdated(uri),
      log: this.log,
      sessions: this.serving.live
    });
  }

  /**
   * Builds an app: records become descriptors, schemas are derived and every chain is
   * compiled, once. Misuse throws a ConfigurationError that names the class and method.
   */
  static create<C extends object>(options: FusionAppOptions<C>): FusionApp {
    if (!options || !Array.isArray(options.tools)) throw new ConfigurationError('FusionApp.create needs { tools: [YourToolClass, …] }.');
    return new FusionApp(options as FusionAppOptions<object>);
  }

  /** The app's own container (a child container: nothing is registered globally). Override providers here in tests. */
  get container(): DependencyContainer {
    return this.parts.container;
  }

  /** What `mount(namespace, app)` takes of this app: its tool classes now, middleware, default presenter, providers, contextFactory and views. */
  get mountable(): Omit<Mount, 'namespace' | 'app'> {
    const { middleware, presenter, providers, contextFactory, views } = this.options;
    return { tools: this.parts.toolClasses.classes, middleware, presenter, providers, contextFactory, views };
  }

  /** Calls `listener` after each change of this app's tool classes (how an app it is mounted into follows it). */
  onToolsChanged(listener: () => void): () => void {
    return this.relay.onToolsChanged(listener);
  }

  /** Calls `listener` with each URI this app is told changed (how an app it is mounted into forwards the update). */
  onResourceUpdated(listener: (uri: string) => void): () => void {
    return this.relay.onResourceUpdated(listener);
  }

  /** The validated tool descriptors. */
  get tools(): readonly ToolDescriptor[] {
    return this.parts.toolClasses.registry.tools;
  }

  /**
   * Adds tool classes at run time (the classes of the `tools` option: their tools, resources
   * and prompts alike). The whole set is validated first (a ConfigurationError leaves the app
   * unchanged); connected clients then get the matching `list_changed` notifications.
   *
   * @example
   * ```ts
   * app.addTools(LateTools); // clients get notifications/tools/list_changed
   * ```
   */
  addTools(...classes: Constructor[]): void {
    this.assertOpen();
    const current = this.parts.toolClasses.classes;
    this.replaceTools([...current, ...classes.filter((c) => !current.includes(c))]);
  }

  /** Whether a tool class is one of the app's tool classes now (given to `tools` or `addTools`). */
  hasTools(toolClass: Constructor): boolean {
    return this.parts.toolClasses.classes.includes(toolClass);
  }

  /** Removes tool classes at run time; connected clients get `list_changed` notifications. */
  removeTools(...classes: Constructor[]): void {
    this.assertOpen();
    this.replaceTools(this.parts.toolClasses.classes.filter((c) => !classes.includes(c)));
  }

  /**
   * Adds tool classes at run time.
   *
   * @deprecated Use {@link FusionApp.addTools} (same behaviour; "providers" names DI registrations, the `providers`
   * option). This alias will be removed in the next major release.
   */
  addProviders(...classes: Constructor[]): void {
    this.addTools(...classes);
  }

  /**
   * Whether a tool class is one of the app's tool classes now.
   *
   * @deprecated Use {@link FusionApp.hasTools} (same behaviour). This alias will be removed in the next major release.
   */
  hasProvider(provider: Constructor): boolean {
    return this.hasTools(provider);
  }

  /**
   * Removes tool classes at run time.
   *
   * @deprecated Use {@link FusionApp.removeTools} (same behaviour). This alias will be removed in the next major release.
   */
  removeProviders(...classes: Constructor[]): void {
    this.removeTools(...classes);
  }

  private replaceTools(classes: Constructor[]): void {
    const changed = this.parts.toolClasses.replace(classes);
    for (const surface of ['tools', 'resources', 'prompts'] as const) if (changed[surface]) this.parts.notifier.listChanged(surface);
    this.relay.announceToolsChanged();
  }

  /**
   * Serves `next`'s definition from now on, in place of this app's own: its tool classes (with
   * their tools, resources and prompts), providers, middleware, views and extensions. What is
   * serving stays: the HTTP listeners, the 2025-era sessions and stdio (no client reconnects),
   * the call queue, the mutation lock and the continuation store. Connected clients get a
   * `list_changed` notification for each list that changed, and the result says which.
   *
   * `next` is an app made for this (by the same factory, from the new code) that was never served;
   * it is spent by the adoption (its own methods then throw). Calls in flight keep the code they
   * started with: the replaced definition is released (its extensions stopped, gateways closed,
   * `onClose` called) once its last call ends. A definition that does not build (a
   * ConfigurationError) leaves this app as it was. This is how `mcpfusion dev` reloads a project.
   *
   * @example
   * ```ts
   * const changes = await app.adopt(createApp()); // { tools: true, resources: false, prompts: false }
   * ```
   */
  async adopt(next: FusionApp): Promise<ListChanges> {
    this.assertOpen();
    assertAdoptable(this, next, next.listeners.length > 0 || next.httpHandlers.size > 0);
    next.assertOpen();
    next.spend();
    const how = { front: this.front, serving: this.serving, served: this.listeners.length > 0, closed: () => this.closing !== undefined };
    const { parts, options } = await adoptedDefinition(next.options, this.parts, this, this.log, how);
    const [before, beforeOptions] = [this.parts, this.options];
    const changes = changedLists(before, parts);
    [this.parts, this.options] = [parts, options];
    this.relay.follow(options.mounts ?? [], options.gateways ?? []);
    for (const surface of ['tools', 'resources', 'prompts'] as const) if (changes[surface]) this.parts.notifier.listChanged(surface);
    this.relay.announceToolsChanged();
    this.retired.retire(before, beforeOptions, options);
    return changes;
  }

  /** Ends an app given to `adopt`: it stops following what it followed, and refuses use from now on. */
  private spend(): void {
    this.closing = Promise.resolve();
    this.relay.close();
    this.parts.tasks?.close();
    this.parts.engine.close();
    this.parts.notifier.close();
  }

  /**
   * Tells subscribed clients that a resource changed (`notifications/resources/updated`):
   * 2025-era connections that subscribed to `uri`, and 2026-era listen streams that asked for it.
   */
  notifyResourceUpdated(uri: string): void {
    this.assertOpen();
    this.parts.notifier.resourceUpdated(uri);
    this.relay.announceResourceUpdated(uri);
  }

  /**
   * Every tool of the app, as `tools/list` entries. With `toolSearch`, `tools/list` shows the search and call
   * tools (and the tools pinned) instead; these are what a search ranks.
   */
  listTools(): readonly Tool[] {
    this.assertOpen();
    return this.parts.toolClasses.catalogs.tools.listing;
  }

  /**
   * A member's compiled chain, as step names in order: a tool by name (the default kind), a
   * prompt by name, a resource by URI or URI template.
   */
  describeChain(name: string, kind: Exclude<CallKind, 'completion'> = 'tool'): readonly string[] {
    this.assertOpen();
    return chainOf(this.parts, name, kind);
  }

  /** Calls in flight now. */
  get activeCalls(): number {
    return this.parts.engine.activeCalls;
  }

  /**
   * Test entry point: calls a tool through the full chain with no transport and returns the
   * shaped result, as a client would receive it (see `DirectCallOptions`; `src/direct/` does the
   * work). A failure resolves as an `isError` result; an unknown tool name throws. With `toolSearch`,
   * the search tool and the call tool are called here too (the latter runs the tool it names).
   */
  callTool(name: string, args: Record<string, unknown> = {}, options: DirectCallOptions = {}): Promise<CallToolResult> {
    return callByName(this.parts, name, args, options);
  }

  /** A web-standard HTTP endpoint for both eras (mount it anywhere, or drive it in-process in tests). */
  createHttpHandler(options: HttpHandlerOptions = {}): FusionHttpHandler {
    this.assertOpen();
    return this.httpHandlers.create(options);
  }

  /**
   * Serves the app on stdio or Streamable HTTP (127.0.0.1 by default). Installs SIGINT and
   * SIGTERM handlers for graceful shutdown unless `handleSignals: false`.
   */
  async listen(options: ListenOptions, stdioTransport?: Transport): Promise<Listening> {
    this.assertOpen();
    await this.parts.extensions.start();
    const [listening, started] = await listenOn(
      {
        serverFactory: this.serverFactory,
        createHttpHandler: (http) => this.createHttpHandler(http),
        withAuth: this.options.auth !== undefined,
        log: this.log
      },
      options,
      stdioTransport
    );
    this.listeners.push(started);
    if (options.handleSignals !== false) this.signals.install();
    return listening;
  }

  /** Graceful shutdown: refuse new calls, abort those in flight, close transports, then `onClose`. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.signals.remove();
      this.relay.close();
      this.parts.tasks?.close();
      this.parts.notifier.close();
      this.parts.engine.close();
      // Replaced definitions still running calls: those are aborted too, and their release awaited.
      await this.retired.abort();
      await Promise.allSettled([...this.listeners, ...this.httpHandlers.all()].map((listener) => listener.close()));
      await this.parts.extensions.stop();
      await Promise.allSettled((this.options.gateways ?? []).map((gateway) => gateway.close()));
      await this.options.onClose?.();
    })();
    return this.closing;
  }

  private assertOpen(): void {
    if (this.closing) throw new AppClosedError();
  }
}
