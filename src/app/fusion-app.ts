import { randomBytes } from 'node:crypto';
import type { CallToolResult, McpServerFactory, Tool, Transport } from '@modelcontextprotocol/server';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import { defaultPrincipalOf } from '../auth/caller-auth';
import { createHttpAuthGate, type HttpAuthGate } from '../auth/http-auth';
import { InProcessCallQueue } from '../concurrency/call-queue';
import { TaskManager } from '../tasks/task-manager';
import { InMemoryTaskStore } from '../tasks/task-store';
import type { CallRequest } from '../pipeline/call-request';
import { FifoMutex } from '../concurrency/fifo-mutex';
import { checkInjection, duplicateCopies, needsCallScope } from '../di/injection-check';
import { FUSION_APP } from '../di/tokens';
import { AppClosedError, ConfigurationError, UnknownToolError } from '../errors';
import { SignedContinuationStore, resolveStateKey, type ContinuationStore } from '../interactive/continuation-store';
import type { Registry } from '../metadata/registry-builder';
import type { ToolDescriptor } from '../metadata/tool-descriptor';
import type { Constructor } from '../metadata/types';
import type { RequestExtra } from '../pipeline/call-context';
import { requestExtra } from '../pipeline/call-context-factory';
import type { ChainDependencies } from '../pipeline/chain-builder';
import { isMiddlewareClass } from '../pipeline/middleware';
import type { CompiledMember } from '../pipeline/compiled-member';
import { ErrorBoundary, type CallKind } from '../pipeline/error-boundary';
import { SchemaCatalog } from '../schema/json-schema';
import { PromptCatalog } from '../surface/prompt-catalog';
import { ResourceCatalog } from '../surface/resource-catalog';
import { ToolCatalog } from '../surface/tool-catalog';
import { callThroughHarness, type DirectCallOptions } from '../testing/harness';
import { driveTask } from '../testing/task-harness';
import { createFusionHttpHandler, type FusionHttpHandler, type HttpHandlerOptions } from '../transports/http/fusion-http-handler';
import { listenHttp, type HttpListener } from '../transports/http/http-listener';
import { LiveServers } from '../transports/live-servers';
import { createServerFactory } from '../transports/server-factory';
import { listenStdio, type StdioListener } from '../transports/stdio-listener';
import type { FusionAppOptions, ListenOptions } from './app-options';
import { CallEngine } from './call-engine';
import { compileTools } from './compile-tools';
import { Dispatcher } from './dispatcher';
import { ProviderSet } from './provider-set';
import { registerProvider } from './providers';

export type { DirectCallOptions } from '../testing/harness';

/** What `listen` started. */
export interface Listening {
  /** The endpoint URL (HTTP only). */
  readonly url?: URL;
  /** Resolves when the stdio client closes its end (stdio only). */
  readonly closed?: Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * An MCP server application: the composition root. It builds the container, the chains (one
 * per tool, resource, prompt and completer, compiled once), the engine that runs them and the
 * transports that serve them; everything else lives in those parts.
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
  private readonly engine: CallEngine;
  private dispatcher!: Dispatcher;
  private readonly gate: HttpAuthGate | undefined;
  private readonly providers: ProviderSet;
  private readonly live = new LiveServers();
  private readonly httpHandlers = new Set<FusionHttpHandler>();
  private readonly listeners: Array<{ close(): Promise<void> }> = [];
  private readonly signalHandlers: Array<[NodeJS.Signals, () => void]> = [];
  private closing: Promise<void> | undefined;

  private constructor(private readonly options: FusionAppOptions<object>) {
    this.container = (options.parentContainer ?? rootContainer).createChildContainer();
    for (const provider of options.providers ?? []) registerProvider(this.container, provider);
    this.container.register(FUSION_APP, { useValue: this });
    const schemas = new SchemaCatalog();
    let deps: ChainDependencies | undefined;
    const chainDeps = (registry: Registry): ChainDependencies => (deps ??= this.chainDependencies(registry));
    this.providers = new ProviderSet(
      options.tools,
      (registry) => {
        const d = chainDeps(registry);
        return {
          tools: new ToolCatalog(compileTools(registry.tools, schemas, d, options.presenter)),
          resources: new ResourceCatalog(registry.resources, registry.templates, schemas, d),
          prompts: new PromptCatalog(registry.prompts, schemas, d)
        };
      },
      (registry) => {
        if (deps) assertSingleUseSupported(registry, deps.continuations);
        assertInjectable(this.container, registry, options);
      }
    );
    assertSingleUseSupported(this.providers.registry, deps!.continuations);
    const boundary = new ErrorBoundary(options.maskErrors === true, (m) => this.log(m));
    this.engine = new CallEngine(
      { store: deps!.continuations, principalOf: options.principalOf ?? ((extra: RequestExtra) => defaultPrincipalOf(extra.authInfo)) },
      boundary
    );
    this.serverFactory = createServerFactory(
      {
        app: (this.dispatcher = new Dispatcher(
          this.engine,
          () => this.providers.catalogs,
          options.auth?.listing === 'allowed',
          this.taskManager()
        )),
        live: this.live
      },
      { name: options.name ?? 'mcpfusion-app', version: options.version ?? '0.0.0', instructions: options.instructions }
    );
    this.gate = this.authGate();
    // A shared bus: its events reach this instance's long-lived connections (listen streams subscribe to it themselves).
    this.unsubscribeBus = options.bus?.subscribe((event) => {
      if (event.kind === 'resource_updated') this.live.resourceUpdated(event.uri);
      else
        this.live.listChanged(
          event.kind === 'tools_list_changed' ? 'tools' : event.kind === 'resources_list_changed' ? 'resources' : 'prompts'
        );
    });
  }

  private readonly unsubscribeBus: (() => void) | undefined;

  /** What every chain shares; built with the first registry (the continuation store depends on whether anything is interactive). */
  private chainDependencies(registry: Registry): ChainDependencies {
    const { options } = this;
    const interactive = [...registry.tools, ...registry.prompts, ...registry.templates].some((m) => m.interactive);
    const continuations: ContinuationStore =
      options.continuationStore ??
      new SignedContinuationStore(
        interactive ? resolveStateKey(options.stateKey, (m) => this.log(m)) : randomBytes(32),
        options.stateTtlSeconds ?? 600
      );
    const opaque = opaqueTokens(options);
    return {
      container: this.container,
      queue:
        options.concurrency && 'queue' in options.concurrency ? options.concurrency.queue : new InProcessCallQueue(options.concurrency),
      mutationLock: options.mutationLock ?? new FifoMutex(),
      contextFactory: options.contextFactory as ((extra: RequestExtra) => object) | undefined,
      globalMiddleware: options.middleware ?? [],
      continuations,
      needsCallScope: (classes) => needsCallScope(this.container, classes, opaque)
    };
  }

  /** The validated tool descriptors. */
  get tools(): readonly ToolDescriptor[] {
    return this.providers.registry.tools;
  }

  /**
   * Adds tool classes at run time (tools, resources and prompts alike). The whole set is
   * validated first (a ConfigurationError leaves the app unchanged); connected clients then
   * get the matching `list_changed` notifications.
   */
  addProviders(...classes: Constructor[]): void {
    this.assertOpen();
    this.replaceProviders([...this.providers.classes, ...classes.filter((c) => !this.providers.classes.includes(c))]);
  }

  /** Whether a tool class is one of the app's providers now. */
  hasProvider(provider: Constructor): boolean {
    return this.providers.classes.includes(provider);
  }

  /** Removes tool classes at run time; connected clients get `list_changed` notifications. */
  removeProviders(...classes: Constructor[]): void {
    this.assertOpen();
    this.replaceProviders(this.providers.classes.filter((c) => !classes.includes(c)));
  }

  private replaceProviders(classes: Constructor[]): void {
    const changed = this.providers.replace(classes);
    if (changed.tools) this.notifyListChanged('tools');
    if (changed.resources) this.notifyListChanged('resources');
    if (changed.prompts) this.notifyListChanged('prompts');
  }

  /**
   * Tells subscribed clients that a resource changed (`notifications/resources/updated`):
   * 2025-era connections that subscribed to `uri`, and 2026-era listen streams that asked for it.
   */
  notifyResourceUpdated(uri: string): void {
    this.assertOpen();
    // With a shared bus, the event goes out once and comes back to every instance (this one included).
    if (this.options.bus) return this.options.bus.publish({ kind: 'resource_updated', uri });
    this.live.resourceUpdated(uri);
    for (const handler of this.httpHandlers) handler.notify.resourceUpdated(uri);
  }

  private notifyListChanged(surface: 'tools' | 'resources' | 'prompts'): void {
    if (this.options.bus) return this.options.bus.publish({ kind: `${surface}_list_changed` });
    this.live.listChanged(surface);
    for (const handler of this.httpHandlers) {
      if (surface === 'tools') handler.notify.toolsChanged();
      else if (surface === 'resources') handler.notify.resourcesChanged();
      else handler.notify.promptsChanged();
    }
  }

  /**
   * Builds an app: records become descriptors, schemas are derived and every chain is
   * compiled, once. Misuse throws a ConfigurationError that names the class and method.
   */
  static create<C extends object>(options: FusionAppOptions<C>): FusionApp {
    if (!options || !Array.isArray(options.tools)) throw new ConfigurationError('FusionApp.create needs { tools: [YourToolClass, …] }.');
    return new FusionApp(options as FusionAppOptions<object>);
  }

  /** The `tools/list` entries. */
  listTools(): readonly Tool[] {
    this.assertOpen();
    return this.providers.catalogs.tools.listing;
  }

  /**
   * A member's compiled chain, as step names in order: a tool by name (the default kind), a
   * prompt by name, a resource by URI or URI template.
   */
  describeChain(name: string, kind: Exclude<CallKind, 'completion'> = 'tool'): readonly string[] {
    this.assertOpen();
    const { tools, prompts, resources } = this.providers.catalogs;
    const member: CompiledMember | undefined =
      kind === 'tool' ? tools.get(name) : kind === 'prompt' ? prompts.get(name) : resources.member(name);
    if (!member) throw new ConfigurationError(`No ${kind} named ${name}.`);
    return member.steps.map((step) => step.name);
  }

  /** Calls in flight now. */
  get activeCalls(): number {
    return this.engine.activeCalls;
  }

  /**
   * Test entry point: calls a tool through the full chain with no transport and returns the
   * shaped result, as a client would receive it (see `DirectCallOptions`). A failure resolves
   * as an `isError` result; an unknown tool name throws.
   */
  callTool(name: string, args: Record<string, unknown> = {}, options: DirectCallOptions = {}): Promise<CallToolResult> {
    const tool = this.providers.catalogs.tools.get(name);
    if (!tool) return Promise.reject(new UnknownToolError(name));
    if (options.asTask) return driveTask(this.dispatcher.tasks, tool, args, options);
    return callThroughHarness(this.engine, tool, args, options);
  }

  /** A web-standard HTTP endpoint for both eras (mount it anywhere, or drive it in-process in tests). */
  createHttpHandler(options: HttpHandlerOptions = {}): FusionHttpHandler {
    this.assertOpen();
    const handler = createFusionHttpHandler(
      this.serverFactory,
      {
        onerror: (e) => this.log(`http: ${e.message}`),
        ...(this.options.bus ? { bus: this.options.bus } : {}),
        ...options,
        onClose: () => {
          this.httpHandlers.delete(handler);
          options.onClose?.();
        }
      },
      this.gate,
      this.dispatcher.tasks
    );
    this.httpHandlers.add(handler);
    return handler;
  }

  /**
   * Serves the app on stdio or Streamable HTTP (127.0.0.1 by default). Installs SIGINT and
   * SIGTERM handlers for graceful shutdown unless `handleSignals: false`.
   */
  async listen(options: ListenOptions, stdioTransport?: Transport): Promise<Listening> {
    this.assertOpen();
    let listening: Listening;
    if (options.transport === 'stdio') {
      const stdio: StdioListener = listenStdio(this.serverFactory, (e) => this.log(`stdio: ${e.message}`), stdioTransport);
      this.listeners.push(stdio);
      listening = { closed: stdio.closed };
    } else {
      const host = options.host ?? '127.0.0.1';
      if (!LOOPBACK.has(host) && !options.allowedHosts) {
        throw new ConfigurationError(
          `Binding to ${host} needs allowedHosts (the Host names clients use), to keep DNS rebinding protection.`
        );
      }
      const handler = this.createHttpHandler(options);
      const http: HttpListener = await listenHttp(handler, {
        host,
        port: options.port ?? 3000,
        path: options.path ?? '/mcp',
        // With auth, an oversized Authorization header is answered 401 by the gate (not 431 by node).
        ...(this.options.auth ? { maxHeaderSize: 128 * 1024 } : {})
      });
      this.listeners.push(http);
      listening = { url: http.url };
    }
    if (options.handleSignals !== false && this.signalHandlers.length === 0) this.installSignalHandlers();
    return listening;
  }

  /** Graceful shutdown: refuse new calls, abort those in flight, close transports, then `onClose`. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const [signal, handler] of this.signalHandlers) process.off(signal, handler);
      this.dispatcher.tasks?.close();
      this.unsubscribeBus?.();
      this.engine.close();
      await Promise.allSettled([...this.listeners, ...this.httpHandlers].map((listener) => listener.close()));
      await this.options.onClose?.();
    })();
    return this.closing;
  }

  /** The task manager, when a tool declares `task` or the app has `tasks` settings. */
  private taskManager(): TaskManager | undefined {
    const { options } = this;
    if (!options.tasks && !this.providers.registry.tools.some((tool) => tool.task)) return undefined;
    const principalOf = options.principalOf;
    return new TaskManager(
      options.tasks?.store ?? new InMemoryTaskStore(),
      options.tasks ?? {},
      (name, request) => this.dispatcher.runToolRound(name, request),
      (request: CallRequest) => (principalOf ? principalOf(extraOf(request)) : defaultPrincipalOf(request.authInfo)) ?? null,
      (message) => this.log(message)
    );
  }

  /** The resource-server gate of the HTTP endpoint (`auth`), with every scope the app's members declare: built at create, so a misconfiguration fails there. */
  private authGate(): HttpAuthGate | undefined {
    const auth = this.options.auth;
    if (!auth) return undefined;
    const { tools, resources, templates, prompts } = this.providers.registry;
    const declared = [...tools, ...resources, ...templates, ...prompts].flatMap((member) => member.scopes);
    return createHttpAuthGate(auth, declared, (request) => this.dispatcher.scopesOf(request));
  }

  private installSignalHandlers(): void {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const handler = (): void => {
        this.log(`${signal}: shutting down`);
        void this.close().finally(() => process.exit(0));
      };
      process.once(signal, handler);
      this.signalHandlers.push([signal, handler]);
    }
  }

  private assertOpen(): void {
    if (this.closing) throw new AppClosedError();
  }

  private log(message: string): void {
    (this.options.logger ?? ((m: string) => process.stderr.write(`[mcpfusion] ${m}\n`)))(message);
  }
}

/** Tokens whose providers build something per resolution (factories, transient classes): what they inject is not known ahead. */
function opaqueTokens(options: FusionAppOptions<object>): ReadonlySet<unknown> {
  const out = new Set<unknown>();
  for (const provider of options.providers ?? []) {
    if (typeof provider === 'function') continue;
    if ('useFactory' in provider || ('useClass' in provider && provider.singleton === false)) out.add(provider.provide);
  }
  return out;
}

/** Members that declare single-use state need a store that remembers used states. */
function assertSingleUseSupported(registry: Registry, store: ContinuationStore): void {
  if (store.consume) return;
  const members = [...registry.tools, ...registry.prompts, ...registry.templates].filter((m) => m.singleUseState);
  if (members.length === 0) return;
  throw new ConfigurationError(
    `${members.map((m) => `${m.className}.${m.methodName}`).join(', ')} declare(s) @Interactive({ singleUseState: true }), ` +
      'but the continuationStore has no consume(id): implement it (remember used ids until they expire) or use SignedContinuationStore.'
  );
}

/**
 * Every class the app will resolve (tool classes, presenter and middleware classes, class
 * providers) must be buildable by its container, and the packages whose identity matters must
 * be one copy: checked now, so that a missing metadata or a second tsyringe fails at startup
 * and not on every call.
 */
function assertInjectable(container: DependencyContainer, registry: Registry, options: FusionAppOptions<object>): void {
  const classes = new Set<Constructor>();
  const members = [...registry.tools, ...registry.resources, ...registry.templates, ...registry.prompts];
  for (const member of members) classes.add(member.target);
  const presenters = [options.presenter, ...registry.tools.map((t) => t.presenter)];
  for (const presenter of presenters) if (typeof presenter === 'function') classes.add(presenter as Constructor);
  const middleware = [...(options.middleware ?? []), ...members.flatMap((m) => m.middleware)];
  for (const m of middleware) if (isMiddlewareClass(m)) classes.add(m);
  for (const provider of options.providers ?? []) {
    if (typeof provider === 'function') classes.add(provider);
    else if ('useClass' in provider) classes.add(provider.useClass);
  }
  // Classes the app's container builds once: they must not inject what exists per call.
  const singletons = new Map<unknown, Constructor>();
  for (const provider of options.providers ?? []) {
    if (typeof provider === 'function') singletons.set(provider, provider);
    else if ('useClass' in provider && provider.singleton !== false) singletons.set(provider.provide, provider.useClass);
  }
  const problems = [...duplicateCopies(), ...checkInjection(container, classes, singletons)];
  if (problems.length > 0) {
    throw new ConfigurationError(`Cannot start: ${problems.length} problem(s) with dependency injection:\n- ${problems.join('\n- ')}`);
  }
}

/** The `extra` of `principalOf` for a request outside any call (a task's creation or its later requests). */
function extraOf(request: CallRequest): RequestExtra {
  return requestExtra(request, request.subject, () => request.signal ?? NEVER_ABORTED);
}

const NEVER_ABORTED = new AbortController().signal;
