import { randomBytes } from 'node:crypto';
import { isInputRequiredResult, type CallToolResult, type McpServerFactory, type Tool, type Transport } from '@modelcontextprotocol/server';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import { InProcessCallQueue } from '../concurrency/call-queue';
import { FifoMutex } from '../concurrency/fifo-mutex';
import { FUSION_APP } from '../di/tokens';
import { ConfigurationError } from '../errors';
import { checkInjection, duplicateCopies } from '../di/injection-check';
import { SignedContinuationStore, resolveStateKey, type ContinuationStore } from '../interactive/continuation-store';
import { noInputChannel } from '../interactive/input-required';
import { buildRegistry, type Registry } from '../metadata/registry-builder';
import type { Constructor } from '../metadata/types';
import type { ChainDependencies } from '../pipeline/chain-builder';
import type { CompiledTool } from '../pipeline/compiled-tool';
import { PromptCatalog } from '../surface/prompt-catalog';
import { ResourceCatalog } from '../surface/resource-catalog';
import { LiveServers } from '../transports/live-servers';
import type { ToolDescriptor } from '../metadata/tool-descriptor';
import type { RequestExtra } from '../pipeline/call-context';
import { SchemaCatalog } from '../schema/json-schema';
import { createFusionHttpHandler, type FusionHttpHandler, type HttpHandlerOptions } from '../transports/http/fusion-http-handler';
import { listenHttp, type HttpListener } from '../transports/http/http-listener';
import { createServerFactory, type ServedSurfaces } from '../transports/server-factory';
import { listenStdio, type StdioListener } from '../transports/stdio-listener';
import type { FusionAppOptions, ListenOptions } from './app-options';
import { compileTools } from './compile-tools';
import { answerFromMap, harnessView, type HarnessInputAnswer, type HarnessInputRequest } from './harness-answers';
import { registerProvider } from './providers';
import { ToolEngine } from './tool-engine';

/** Options of the test entry point `app.callTool`. */
export interface DirectCallOptions {
  /**
   * Answers to requests for input, by field name: a form is accepted with the fields it asks
   * for (declined when none of them is here); a URL request is accepted unless its key maps to
   * `false`; a sampling request is answered with `answers[key]` (a sampling result), a roots
   * request with `{ roots: answers[key] }`.
   */
  answers?: Record<string, unknown>;
  /** Answers requests for input one by one (takes precedence over `answers`). */
  onInput?: (request: HarnessInputRequest) => HarnessInputAnswer | Promise<HarnessInputAnswer>;
  signal?: AbortSignal;
  /** The request `_meta`, as a client would send it. */
  meta?: Record<string, unknown>;
  /** Receives progress as a client with a progress token would. Without it, no progress channel exists. */
  onProgress?: (progress: number, message: string | undefined) => void;
  authInfo?: RequestExtra['authInfo'];
}

/** What `listen` started. */
export interface Listening {
  /** The endpoint URL (HTTP only). */
  readonly url?: URL;
  /** Resolves when the stdio client closes its end (stdio only). */
  readonly closed?: Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * An MCP server application: its tools, compiled once, its own DI container, and the
 * transports it serves.
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
  /** The validated tool descriptors. */
  tools: readonly ToolDescriptor[];
  /** The SDK server factory (for `createMcpHandler`, `serveStdio`, or your own HTTP framework). */
  readonly serverFactory: McpServerFactory;
  private readonly engine: ToolEngine;
  private readonly schemas = new SchemaCatalog();
  private readonly chainDeps: ChainDependencies;
  private readonly surfaces: { -readonly [K in keyof ServedSurfaces]: ServedSurfaces[K] };
  private readonly httpHandlers = new Set<FusionHttpHandler>();
  private classes: Constructor[];
  private readonly listeners: Array<{ close(): Promise<void> }> = [];
  private readonly signalHandlers: Array<[NodeJS.Signals, () => void]> = [];
  private closing: Promise<void> | undefined;

  private constructor(private readonly options: FusionAppOptions<object>) {
    this.container = (options.parentContainer ?? rootContainer).createChildContainer();
    for (const provider of options.providers ?? []) registerProvider(this.container, provider);
    this.container.register(FUSION_APP, { useValue: this });
    this.classes = [...options.tools];
    const registry = buildRegistry(this.classes);
    const interactive = [...registry.tools, ...registry.prompts, ...registry.templates].some((m) => m.interactive);
    const ttl = options.stateTtlSeconds ?? 600;
    const continuations: ContinuationStore =
      options.continuationStore ??
      new SignedContinuationStore(interactive ? resolveStateKey(options.stateKey, (m) => this.log(m)) : randomBytes(32), ttl);
    assertSingleUseSupported(registry, continuations);
    assertInjectable(this.container, registry, options);
    this.chainDeps = {
      container: this.container,
      queue:
        options.concurrency && 'queue' in options.concurrency ? options.concurrency.queue : new InProcessCallQueue(options.concurrency),
      mutationLock: options.mutationLock ?? new FifoMutex(),
      contextFactory: options.contextFactory as ((extra: RequestExtra) => object) | undefined,
      globalMiddleware: options.middleware ?? [],
      continuations
    };
    const invoker = {
      container: this.container,
      contextFactory: this.chainDeps.contextFactory,
      store: continuations,
      principalOf: options.principalOf ?? ((extra: RequestExtra) => extra.authInfo?.clientId)
    };
    this.engine = new ToolEngine(this.compile(registry), this.container, { store: continuations, principalOf: invoker.principalOf });
    this.tools = registry.tools;
    this.surfaces = {
      tools: this.engine,
      resources: new ResourceCatalog(registry.resources, registry.templates, this.schemas, invoker),
      prompts: new PromptCatalog(registry.prompts, this.schemas, invoker),
      invoker,
      live: new LiveServers()
    };
    this.serverFactory = createServerFactory(this.surfaces, {
      name: options.name ?? 'mcpfusion-app',
      version: options.version ?? '0.0.0',
      instructions: options.instructions
    });
  }

  private compile(registry: Registry): CompiledTool[] {
    return compileTools(registry.tools, this.schemas, this.chainDeps, this.options.presenter);
  }

  /**
   * Adds tool classes at run time (tools, resources and prompts alike). The whole set is
   * validated first (a ConfigurationError leaves the app unchanged); connected clients then
   * get the matching `list_changed` notifications.
   */
  addProviders(...classes: Constructor[]): void {
    this.replaceProviders([...this.classes, ...classes.filter((c) => !this.classes.includes(c))]);
  }

  /** Whether a tool class is one of the app's providers now. */
  hasProvider(provider: Constructor): boolean {
    return this.classes.includes(provider);
  }

  /** Removes tool classes at run time; connected clients get `list_changed` notifications. */
  removeProviders(...classes: Constructor[]): void {
    this.replaceProviders(this.classes.filter((c) => !classes.includes(c)));
  }

  private replaceProviders(classes: Constructor[]): void {
    const registry = buildRegistry(classes);
    assertSingleUseSupported(registry, this.chainDeps.continuations);
    assertInjectable(this.container, registry, this.options);
    const before = { tools: this.engine.listing, resources: this.surfaces.resources, prompts: this.surfaces.prompts.listing };
    this.engine.replace(this.compile(registry));
    this.tools = registry.tools;
    this.surfaces.resources = new ResourceCatalog(registry.resources, registry.templates, this.schemas, this.surfaces.invoker);
    this.surfaces.prompts = new PromptCatalog(registry.prompts, this.schemas, this.surfaces.invoker);
    this.classes = classes;
    if (JSON.stringify(before.tools) !== JSON.stringify(this.engine.listing)) this.notifyListChanged('tools');
    if (before.resources.size !== 0 || this.surfaces.resources.size !== 0) this.notifyListChanged('resources');
    if (JSON.stringify(before.prompts) !== JSON.stringify(this.surfaces.prompts.listing)) this.notifyListChanged('prompts');
  }

  /**
   * Tells subscribed clients that a resource changed (`notifications/resources/updated`):
   * 2025-era connections that subscribed to `uri`, and 2026-era listen streams that asked for it.
   */
  notifyResourceUpdated(uri: string): void {
    this.surfaces.live.resourceUpdated(uri);
    for (const handler of this.httpHandlers) handler.notify.resourceUpdated(uri);
  }

  private notifyListChanged(surface: 'tools' | 'resources' | 'prompts'): void {
    this.surfaces.live.listChanged(surface);
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
    return this.engine.listing;
  }

  /** The compiled chain of a tool, as step names in order. */
  describeChain(toolName: string): readonly string[] {
    const tool = this.engine.get(toolName);
    if (!tool) throw new ConfigurationError(`No tool named ${toolName}.`);
    return tool.steps.map((step) => step.name);
  }

  /** Calls in flight now. */
  get activeCalls(): number {
    return this.engine.activeCalls;
  }

  /**
   * Test entry point: calls a tool through the full chain with no transport and returns
   * the shaped result, as a client would receive it.
   */
  async callTool(name: string, args: Record<string, unknown> = {}, options: DirectCallOptions = {}): Promise<CallToolResult> {
    const { onProgress, onInput, answers } = options;
    const canAnswer = Boolean(onInput || answers);
    let requestState: string | undefined;
    let inputResponses: Record<string, unknown> | undefined;
    // Like a 2026-era client: retry with the answers and the echoed state until the result is complete.
    for (;;) {
      const result = await this.engine.call({
        name,
        arguments: args,
        signal: options.signal,
        meta: options.meta,
        authInfo: options.authInfo,
        sendProgress: onProgress ? async (progress, message) => onProgress(progress, message) : undefined,
        requestState,
        inputResponses,
        inputChannel: canAnswer
          ? { form: true, url: true, sampling: true, roots: true }
          : noInputChannel('the test harness was given no answers (pass { answers } or { onInput })')
      });
      if (!isInputRequiredResult(result)) return result as CallToolResult;
      inputResponses = {};
      for (const [key, embedded] of Object.entries(result.inputRequests ?? {})) {
        const request = harnessView(key, embedded as { method: string; params?: Record<string, unknown> });
        inputResponses[key] = onInput ? await onInput(request) : answerFromMap(request, answers ?? {});
      }
      requestState = result.requestState;
    }
  }

  /** A web-standard HTTP endpoint for both eras (mount it anywhere, or drive it in-process in tests). */
  createHttpHandler(options: HttpHandlerOptions = {}): FusionHttpHandler {
    return this.trackHandler(createFusionHttpHandler(this.serverFactory, { onerror: (e) => this.log(`http: ${e.message}`), ...options }));
  }

  /** Keeps a handler for change notifications and shutdown until it is closed. */
  private trackHandler(handler: FusionHttpHandler): FusionHttpHandler {
    this.httpHandlers.add(handler);
    const close = handler.close.bind(handler);
    let closing: Promise<void> | undefined;
    handler.close = () => {
      this.httpHandlers.delete(handler);
      return (closing ??= close());
    };
    return handler;
  }

  /**
   * Serves the app on stdio or Streamable HTTP (127.0.0.1 by default). Installs SIGINT and
   * SIGTERM handlers for graceful shutdown unless `handleSignals: false`.
   */
  async listen(options: ListenOptions, stdioTransport?: Transport): Promise<Listening> {
    if (this.closing) throw new ConfigurationError('This app is closed; create a new one.');
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
      const http: HttpListener = await listenHttp(handler, { host, port: options.port ?? 3000, path: options.path ?? '/mcp' });
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
      this.engine.close();
      await Promise.allSettled([...this.listeners, ...this.httpHandlers].map((listener) => listener.close()));
      await this.options.onClose?.();
    })();
    return this.closing;
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

  private log(message: string): void {
    (this.options.logger ?? ((m: string) => process.stderr.write(`[mcpfusion] ${m}\n`)))(message);
  }
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
  for (const middleware of [...(options.middleware ?? []), ...registry.tools.flatMap((t) => t.middleware)]) {
    if (typeof (middleware.prototype as { use?: unknown } | undefined)?.use === 'function') classes.add(middleware as Constructor);
  }
  for (const provider of options.providers ?? []) {
    if (typeof provider === 'function') classes.add(provider);
    else if ('useClass' in provider) classes.add(provider.useClass);
  }
  const problems = [...duplicateCopies(), ...checkInjection(container, classes)];
  if (problems.length > 0) {
    throw new ConfigurationError(`Cannot start: ${problems.length} problem(s) with dependency injection:\n- ${problems.join('\n- ')}`);
  }
}
