import type { CallToolResult, McpServerFactory, Tool, Transport } from '@modelcontextprotocol/server';
import type { DependencyContainer } from 'tsyringe';
import { AppClosedError, ConfigurationError, UnknownToolError } from '../errors';
import type { ToolDescriptor } from '../metadata/tool-descriptor';
import type { CompiledMember } from '../pipeline/compiled-member';
import { createFusionHttpHandler, type FusionHttpHandler, type HttpHandlerOptions } from '../transports/http/fusion-http-handler';
import type { CallKind, Constructor } from '../types/core';
import type { Mount } from '../compose/mount';
import type { DirectCallOptions } from '../types/harness';
import { callDirect } from '../direct/direct-call';
import type { FusionAppOptions, ListenOptions } from './app-options';
import { assembleApp, type AppParts } from './assemble';
import { ChangeRelay } from './change-relay';
import { listenOn, ProcessSignals, type Closable, type Listening } from './listen';

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
  /** The app's own container (a child container: nothing is registered globally). Override providers here in tests. */
  readonly container: DependencyContainer;
  /** The SDK server factory (for `createMcpHandler`, `serveStdio`, or your own HTTP framework). */
  readonly serverFactory: McpServerFactory;
  private readonly parts: AppParts;
  private readonly httpHandlers = new Set<FusionHttpHandler>();
  private readonly listeners: Closable[] = [];
  private readonly signals = new ProcessSignals();
  private closing: Promise<void> | undefined;
  /** Follows the apps mounted into this one and the gateways; tells the apps this one is mounted into. */
  private readonly relay: ChangeRelay;

  private constructor(private readonly options: FusionAppOptions<object>) {
    this.parts = assembleApp(options, this, (m) => this.log(m));
    this.container = this.parts.container;
    this.serverFactory = this.parts.serverFactory;
    this.relay = new ChangeRelay(options.mounts ?? [], options.gateways ?? [], {
      rebuild: () => this.replaceTools([...this.parts.toolClasses.classes]),
      resourceUpdated: (uri) => this.parts.notifier.resourceUpdated(uri),
      log: (m) => this.log(m)
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
   * Tells subscribed clients that a resource changed (`notifications/resources/updated`):
   * 2025-era connections that subscribed to `uri`, and 2026-era listen streams that asked for it.
   */
  notifyResourceUpdated(uri: string): void {
    this.assertOpen();
    this.parts.notifier.resourceUpdated(uri);
    this.relay.announceResourceUpdated(uri);
  }

  /** The `tools/list` entries. */
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
    const { tools, prompts, resources } = this.parts.toolClasses.catalogs;
    const member: CompiledMember | undefined =
      kind === 'tool' ? tools.get(name) : kind === 'prompt' ? prompts.get(name) : resources.member(name);
    if (!member) throw new ConfigurationError(`No ${kind} named ${name}.`);
    return member.steps.map((step) => step.name);
  }

  /** Calls in flight now. */
  get activeCalls(): number {
    return this.parts.engine.activeCalls;
  }

  /**
   * Test entry point: calls a tool through the full chain with no transport and returns the
   * shaped result, as a client would receive it (see `DirectCallOptions`; `src/direct/` does the
   * work). A failure resolves as an `isError` result; an unknown tool name throws.
   */
  callTool(name: string, args: Record<string, unknown> = {}, options: DirectCallOptions = {}): Promise<CallToolResult> {
    const tool = this.parts.toolClasses.catalogs.tools.get(name);
    if (!tool) return Promise.reject(new UnknownToolError(name));
    return callDirect(this.parts.direct, tool, args, options);
  }

  /** A web-standard HTTP endpoint for both eras (mount it anywhere, or drive it in-process in tests). */
  createHttpHandler(options: HttpHandlerOptions = {}): FusionHttpHandler {
    this.assertOpen();
    const { namePrincipal } = this.parts;
    const handler = createFusionHttpHandler(
      this.serverFactory,
      {
        onerror: (e) => this.log(`http: ${e.message}`),
        ...(this.options.bus ? { bus: this.options.bus } : {}),
        ...options,
        onClose: () => {
          this.httpHandlers.delete(handler);
          this.parts.notifier.endpoints.delete(handler.notify);
          options.onClose?.();
        }
      },
      this.parts.gate,
      this.parts.router.listens,
      // 2025-era sessions are bound to the caller as `principalOf` names it, from what the HTTP request knows.
      (authInfo, httpRequest) => namePrincipal({ authInfo, httpRequest, era: 'legacy' })
    );
    this.httpHandlers.add(handler);
    this.parts.notifier.endpoints.add(handler.notify);
    return handler;
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
        log: (m) => this.log(m)
      },
      options,
      stdioTransport
    );
    this.listeners.push(started);
    if (options.handleSignals !== false)
      this.signals.install(
        () => this.close(),
        (m) => this.log(m)
      );
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
      await Promise.allSettled([...this.listeners, ...this.httpHandlers].map((listener) => listener.close()));
      await this.parts.extensions.stop();
      await Promise.allSettled((this.options.gateways ?? []).map((gateway) => gateway.close()));
      await this.options.onClose?.();
    })();
    return this.closing;
  }

  private assertOpen(): void {
    if (this.closing) throw new AppClosedError();
  }

  private log(message: string): void {
    (this.options.logger ?? ((m: string) => process.stderr.write(`[mcpfusion] ${m}\n`)))(message);
  }
}
