import { randomBytes } from 'node:crypto';
import type { McpServerFactory } from '@modelcontextprotocol/server';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import { createHttpAuthGate, type HttpAuthGate } from '../auth/auth-gate';
import { principalNamer, type NamePrincipal } from '../auth/principal';
import { InProcessCallQueue, type CallQueue } from '../concurrency/call-queue';
import { FifoMutex, type MutationLock } from '../concurrency/fifo-mutex';
import { positiveInt } from '../config/option-checks';
import { needsCallScope } from '../di/injection-check';
import { FUSION_APP } from '../di/tokens';
import type { DirectTarget } from '../direct/direct-target';
import { SignedContinuationStore, resolveStateKey, type ContinuationStore } from '../interactive/continuation-store';
import { buildRegistry, type Registry } from '../metadata/registry-builder';
import type { ChainDependencies } from '../pipeline/chain-builder';
import type { ExtensionLife } from '../pipeline/steps/call-life.step';
import { ErrorBoundary, jsonRpcErrorObject } from '../pipeline/error-boundary';
import { SchemaCatalog } from '../schema/json-schema';
import { PromptCatalog } from '../surface/prompt-catalog';
import { ResourceCatalog } from '../surface/resource-catalog';
import { ToolCatalog } from '../surface/tool-catalog';
import { compileTools } from '../surface/compile-tools';
import type * as ToolSearchModule from '../tool-search/tool-search';
import { toolSearchSettings } from '../tool-search/tool-search-options';
import type { AppTasks } from '../tasks/app-tasks';
import type * as AppTasksModule from '../tasks/app-tasks';
import type * as TaskStoreModule from '../tasks/task-store';
import { LiveServers } from '../transports/live-servers';
import { scopesOfRequest } from '../transports/member-methods';
import { lazyServerFactory } from '../transports/lazy-server-factory';
import type { ServedSurfaces } from '../transports/server-factory';
import { telemetryOf } from './app-telemetry';
import type { ContextFactory } from '../types/context';
import type { FusionAppOptions } from './app-options';
import { CallEngine } from './call-engine';
import { composition } from './composition';
import { ChangeNotifier } from './change-notifier';
import { CurrentRouter } from './current-router';
import { MemberRouter, type Catalogs } from './member-router';
import { registerProvider } from './providers';
import { assertInjectable, assertSingleUseSupported, opaqueTokens, sharesWorkAcrossInstances } from './startup-checks';
import { laterRoundRunner } from './later-rounds';
import { ServedRequests } from './served-requests';
import { ToolClassSet } from './tool-class-set';
import { compileViews } from '../views/compile-views';
import { viewsExtension } from '../views/views-extension';
import type * as TasksExtensionModule from './tasks-extension';
import { withForwardedTasks } from './forwarded-tasks';
import { ExtensionSet, callLivesOf, middlewareAround } from './extension-set';
import { compileExtensionResources } from './extension-resources';
import type { ExtensionHost, FusionExtension } from '../extensions/extension';
import type { LaterRound } from '../extensions/call-life';
import type { MemberHome } from '../pipeline/member-spec';

/** The parts of an app, wired once by {@link assembleApp}. */
export interface AppParts {
  /** The app's own container (a child container: nothing is registered globally). */
  readonly container: DependencyContainer;
  readonly toolClasses: ToolClassSet;
  readonly boundary: ErrorBoundary;
  readonly engine: CallEngine;
  readonly router: MemberRouter;
  readonly tasks: AppTasks | undefined;
  /** Runs a later round of a detached call (`ExtensionHost.runLaterRound`: a task's round after `tasks/update`). */
  readonly runLaterRound: (round: LaterRound) => void;
  /** What `app.callTool` calls through. */
  readonly direct: DirectTarget;
  /** Names a request's caller (the app's `principalOf`): sessions, tasks and telemetry ask it. */
  readonly namePrincipal: NamePrincipal;
  readonly gate: HttpAuthGate | undefined;
  readonly serverFactory: McpServerFactory;
  readonly surfaces: () => ServedSurfaces;
  readonly live: LiveServers;
  readonly notifier: ChangeNotifier;
  /** The app's extensions: the framework's own (tasks, views) and the `extensions` option's. */
  readonly extensions: ExtensionSet;
  /** The queue that admits calls, the lock that serializes mutations, where continuations are signed: a reload keeps them. */
  readonly queue: CallQueue;
  readonly mutationLock: MutationLock;
  readonly continuations: ContinuationStore;
}

/** What an app's definitions share: made with the first, kept by every later one (`FusionApp.adopt`). */
export interface ServingParts {
  readonly serverFactory: McpServerFactory;
  /** What the servers serve (the app's router, its live servers, its telemetry), made on first use; the front lane serves it too. */
  readonly surfaces: () => ServedSurfaces;
  readonly live: LiveServers;
  readonly notifier: ChangeNotifier;
}

/**
 * What outlives a definition of the app: `front` is the router the serving parts call (it hands
 * each request to the definition of the moment); `serving` is absent for the first definition,
 * which makes them. Without a shell (a test of the parts), the front is the definition's own router.
 */
export interface AppShell {
  readonly front: CurrentRouter;
  readonly serving?: ServingParts;
}

/**
 * Wires an app's parts from its options (the composition root's one job), each from parts
 * already built: the container; the registry of the tool classes (validated); what every chain
 * shares (the continuation store depends on whether anything is interactive, the task intake on
 * whether anything runs as a task); the catalogs of compiled chains; the tasks, whose later
 * rounds run the chains of now; the member router, the auth gate and the SDK server factory.
 * Misuse throws a ConfigurationError; nothing is served yet. `app` is what the container gives
 * for `FUSION_APP`.
 */
export function assembleApp(options: FusionAppOptions<object>, app: object, log: (message: string) => void, shell?: AppShell): AppParts {
  const container = (options.parentContainer ?? rootContainer).createChildContainer();
  for (const provider of options.providers ?? []) registerProvider(container, provider);
  // The mounts (each housed in a child container) and gateways: what they add to the app's own members (see ./composition.ts).
  const { homes, viewUris, views: viewDescriptors, sources, extend } = composition(options, container);
  container.register(FUSION_APP, { useValue: app });
  const boundary = new ErrorBoundary(options.maskErrors === true, log);
  const namePrincipal = principalNamer(options.principalOf);
  const engine = new CallEngine(container, namePrincipal, boundary);
  const registry = extend(buildRegistry(options.tools, viewUris));
  assertInjectable(container, registry, options, homes, sources);
  const continuations = continuationStoreOf(options, registry, log);
  assertSingleUseSupported(registry, continuations);
  const errorObjectOf = (error: unknown) => jsonRpcErrorObject(boundary.protocolError(error, 'tool', ''));
  // The tasks' machinery (intake, store, extension, endpoints) is loaded for an app that runs tasks, not at every start.
  /* eslint-disable @typescript-eslint/no-require-imports -- see above */
  const taskModules = taskCapable(options, registry)
    ? {
        ...(require('../tasks/app-tasks') as typeof AppTasksModule),
        ...(require('../tasks/task-store') as typeof TaskStoreModule),
        ...(require('./tasks-extension') as typeof TasksExtensionModule)
      }
    : undefined;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const intake = taskModules
    ? new taskModules.TaskIntake(
        options.tasks?.store ?? new taskModules.InMemoryTaskStore(),
        options.tasks ?? {},
        (request) => namePrincipal(request) ?? null,
        errorObjectOf,
        log
      )
    : undefined;
  // The tasks are built before the chains (its call-life point is in them); a later round runs the chains of the
  // moment it runs (`catalogs`, read then).
  const catalogs = (): Catalogs => toolClasses.catalogs;
  // Ties the requests handed to extensions to the requests they came from (a later round runs with the latter's channels).
  const servedRequests = new ServedRequests();
  const runLaterRound = laterRoundRunner(engine, boundary, catalogs, servedRequests);
  // The framework's own extensions are written in the same API as the app's (the tasks' later rounds through its host).
  const withTasks = intake && taskModules ? taskModules.tasksExtension(intake, boundary) : undefined;
  const tasks: AppTasks | undefined = withTasks?.tasks;
  // The sources' tasks (a gateway's upstream tasks) are served by the same extension as the app's own.
  const servedTasks = withForwardedTasks(withTasks?.extension, sources, namePrincipal, boundary);
  const tasksExt: FusionExtension[] = servedTasks ? [servedTasks] : [];
  const deps = chainDependencies(
    options,
    container,
    boundary,
    continuations,
    // A call that reaches a call-life point waits for the extensions' start (read when it comes: the set is made below).
    callLivesOf([...tasksExt, ...(options.extensions ?? [])], () => extensions.startIfNeeded()),
    homes
  );
  const schemas = new SchemaCatalog();
  const views = compileViews(viewDescriptors, deps);
  const searchSettings = toolSearchSettings(options.toolSearch);
  // The search front is loaded for an app that asks for it (`toolSearch`), not at every start.
  const { ToolSearch } = searchSettings
    ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
      (require('../tool-search/tool-search') as typeof ToolSearchModule)
    : { ToolSearch: undefined };
  const toolClasses = new ToolClassSet(
    options.tools,
    registry,
    (next) => {
      const tools = new ToolCatalog(compileTools(next.tools, schemas, deps, options.presenter));
      return {
        tools,
        resources: new ResourceCatalog(next.resources, next.templates, schemas, deps, views),
        prompts: new PromptCatalog(next.prompts, schemas, deps),
        // A new search front with each catalog: what a search finds is what is served now.
        ...(searchSettings && ToolSearch ? { search: new ToolSearch(tools, searchSettings) } : {})
      };
    },
    (next) => {
      assertSingleUseSupported(next, continuations);
      assertInjectable(container, next, options, homes, sources);
    },
    viewUris,
    extend
  );
  const live = shell?.serving?.live ?? new LiveServers();
  const notifier = shell?.serving?.notifier ?? new ChangeNotifier(live, options.bus);
  const builtIn: FusionExtension[] = [...tasksExt, ...(views.length > 0 ? [viewsExtension()] : [])];
  const host: ExtensionHost = { log, resourcesChanged: () => notifier.listChanged('resources'), runLaterRound };
  const extensions = new ExtensionSet([...builtIn, ...(options.extensions ?? [])], boundary, host, servedRequests);
  const allExtensions = [...builtIn, ...(options.extensions ?? [])];
  const extensionResources = compileExtensionResources(allExtensions, extensions, deps);
  const router = new MemberRouter(engine, boundary, catalogs, options.auth?.listing === 'allowed', extensions, extensionResources);
  // The serving parts reach the router through the front, so a later definition is served under the same sessions.
  const front = shell?.front ?? new CurrentRouter(() => router);
  // Made once, with the first server (or the first front-lane call): the telemetry among them is the app's one.
  let made: ServedSurfaces | undefined;
  const identity = { name: options.name ?? 'mcpfusion-app', version: options.version ?? '0.0.0', instructions: options.instructions };
  const surfaces =
    shell?.serving?.surfaces ??
    (() => (made ??= { app: front, identity, live, telemetry: telemetryOf(options, deps.queue, namePrincipal) }));
  const serverFactory = shell?.serving?.serverFactory ?? lazyServerFactory(surfaces);
  const declared = [
    ...[...registry.tools, ...registry.resources, ...registry.templates, ...registry.prompts].flatMap((m) => m.scopes),
    ...[...extensionResources.values()].flatMap((m) => m.info.scopes)
  ];
  const gate = options.auth
    ? createHttpAuthGate(
        options.auth,
        declared,
        scopesOfRequest((target) => front.scopesOf(target)),
        (auth) => front.listsVisibleTo(auth)
      )
    : undefined;
  return Object.freeze({
    container,
    toolClasses,
    boundary,
    engine,
    router,
    tasks,
    runLaterRound,
    direct: { run: (tool, request, then) => engine.run(tool, request, then), tasks } satisfies DirectTarget,
    namePrincipal,
    gate,
    serverFactory,
    surfaces,
    live,
    notifier,
    extensions,
    queue: deps.queue,
    mutationLock: deps.mutationLock,
    continuations
  });
}

/** Whether the app runs tasks: a tool declares `task`, or the app has `tasks` settings. */
function taskCapable(options: FusionAppOptions<object>, registry: Registry): boolean {
  return options.tasks !== undefined || registry.tools.some((tool) => tool.task);
}

/** Where continuations are signed: the app's store, or one keyed by `stateKey` when anything is interactive (else a throwaway key). */
function continuationStoreOf(options: FusionAppOptions<object>, registry: Registry, log: (message: string) => void): ContinuationStore {
  if (options.continuationStore) return options.continuationStore;
  const interactive = [...registry.tools, ...registry.prompts, ...registry.templates].some((m) => m.interactive);
  return new SignedContinuationStore(
    interactive ? resolveStateKey(options.stateKey, sharesWorkAcrossInstances(options) ? log : undefined) : randomBytes(32),
    options.stateTtlSeconds ?? 600
  );
}

/** What every chain shares. */
function chainDependencies(
  options: FusionAppOptions<object>,
  container: DependencyContainer,
  boundary: ErrorBoundary,
  continuations: ContinuationStore,
  callLives: readonly ExtensionLife[],
  homes: ReadonlyMap<string, MemberHome>
): ChainDependencies {
  const opaque = opaqueTokens(options);
  return {
    container,
    boundary,
    queue: options.concurrency && 'queue' in options.concurrency ? options.concurrency.queue : new InProcessCallQueue(options.concurrency),
    mutationLock: options.mutationLock ?? new FifoMutex(),
    contextFactory: options.contextFactory as ContextFactory | undefined,
    // The extensions' middleware around the app's own (their `steps`).
    globalMiddleware: middlewareAround(options.extensions ?? [], options.middleware ?? []),
    continuations,
    callLives,
    needsCallScope: (classes) => needsCallScope(container, classes, opaque),
    presenterTimeoutMs: positiveInt(options.presenterTimeoutMs, 10_000, 'presenterTimeoutMs'),
    telemetry: options.telemetry !== false,
    homes
  };
}
