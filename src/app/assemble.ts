import { randomBytes } from 'node:crypto';
import type { McpServerFactory } from '@modelcontextprotocol/server';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import { defaultPrincipalOf } from '../auth/caller-auth';
import { createHttpAuthGate, type HttpAuthGate } from '../auth/http-auth';
import { InProcessCallQueue } from '../concurrency/call-queue';
import { FifoMutex } from '../concurrency/fifo-mutex';
import { positiveInt } from '../config/option-checks';
import { needsCallScope } from '../di/injection-check';
import { FUSION_APP } from '../di/tokens';
import { SignedContinuationStore, resolveStateKey, type ContinuationStore } from '../interactive/continuation-store';
import type { Registry } from '../metadata/registry-builder';
import { requestExtra } from '../pipeline/call-context-factory';
import type { ChainDependencies } from '../pipeline/chain-builder';
import { ErrorBoundary, jsonRpcErrorObject } from '../pipeline/error-boundary';
import { SchemaCatalog } from '../schema/json-schema';
import { PromptCatalog } from '../surface/prompt-catalog';
import { ResourceCatalog } from '../surface/resource-catalog';
import { ToolCatalog } from '../surface/tool-catalog';
import { compileTools } from '../surface/compile-tools';
import { AppTasks } from '../tasks/app-tasks';
import { InMemoryTaskStore } from '../tasks/task-store';
import { LiveServers } from '../transports/live-servers';
import { scopesOfRequest } from '../transports/member-methods';
import { createServerFactory } from '../transports/server-factory';
import { Telemetry } from '../telemetry';
import { FRAMEWORK_VERSION } from '../telemetry/version';
import type { ContextFactory, PrincipalOf } from '../types/context';
import type { CallRequest } from '../types/request';
import type { FusionAppOptions } from './app-options';
import { CallEngine } from './call-engine';
import { ChangeNotifier } from './change-notifier';
import { MemberRouter } from './member-router';
import { registerProvider } from './providers';
import { assertInjectable, assertSingleUseSupported, opaqueTokens, sharesWorkAcrossInstances } from './startup-checks';
import { taskEndpoints } from './task-endpoints';
import { ToolClassSet } from './tool-class-set';

/** The parts of an app, wired once by {@link assembleApp}. */
export interface AppParts {
  /** The app's own container (a child container: nothing is registered globally). */
  readonly container: DependencyContainer;
  readonly providers: ToolClassSet;
  readonly boundary: ErrorBoundary;
  readonly engine: CallEngine;
  readonly dispatcher: MemberRouter;
  readonly tasks: AppTasks | undefined;
  readonly gate: HttpAuthGate | undefined;
  readonly serverFactory: McpServerFactory;
  readonly live: LiveServers;
  readonly notifier: ChangeNotifier;
}

/**
 * Wires an app's parts from its options (the composition root's one job): the container, the
 * chains (compiled once per member), the engine and error boundary, the tasks, the auth gate,
 * the member router and the SDK server factory. Misuse throws a ConfigurationError; nothing is
 * served yet. `app` is what the container gives for `FUSION_APP`.
 */
export function assembleApp(options: FusionAppOptions<object>, app: object, log: (message: string) => void): AppParts {
  const container = (options.parentContainer ?? rootContainer).createChildContainer();
  for (const provider of options.providers ?? []) registerProvider(container, provider);
  container.register(FUSION_APP, { useValue: app });
  const boundary = new ErrorBoundary(options.maskErrors === true, log);
  const principalOf: PrincipalOf = options.principalOf ?? ((extra) => defaultPrincipalOf(extra.authInfo));
  const engine = new CallEngine(container, principalOf, boundary);
  // The tasks run later rounds and the auth gate reads scopes through the member router, made last.
  const late: { dispatcher?: MemberRouter } = {};
  let tasks: AppTasks | undefined;
  const schemas = new SchemaCatalog();
  let deps: ChainDependencies | undefined;
  const chainDeps = (registry: Registry): ChainDependencies => {
    if (deps) return deps;
    tasks = taskCapable(options, registry)
      ? new AppTasks(
          options.tasks?.store ?? new InMemoryTaskStore(),
          options.tasks ?? {},
          (name, request) => late.dispatcher!.runTaskRound(name, request),
          (request: CallRequest) => principalOf(requestExtra(request, request.subject, () => request.signal ?? NEVER_ABORTED)) ?? null,
          (error) => jsonRpcErrorObject(boundary.protocolError(error, 'tool', '')),
          log
        )
      : undefined;
    return (deps = chainDependencies(options, registry, container, boundary, tasks, log));
  };
  const providers = new ToolClassSet(
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
      assertInjectable(container, registry, options);
    }
  );
  assertSingleUseSupported(providers.registry, deps!.continuations);
  const dispatcher = (late.dispatcher = new MemberRouter(
    engine,
    boundary,
    () => providers.catalogs,
    options.auth?.listing === 'allowed',
    tasks ? taskEndpoints(tasks, boundary) : undefined
  ));
  const live = new LiveServers();
  const serverFactory = createServerFactory(
    { app: dispatcher, live, telemetry: telemetryOf(options, deps!.queue, principalOf) },
    { name: options.name ?? 'mcpfusion-app', version: options.version ?? '0.0.0', instructions: options.instructions }
  );
  const registry = providers.registry;
  const declared = [...registry.tools, ...registry.resources, ...registry.templates, ...registry.prompts].flatMap((m) => m.scopes);
  const gate = options.auth
    ? createHttpAuthGate(
        options.auth,
        declared,
        scopesOfRequest((target) => dispatcher.scopesOf(target)),
        (auth) => dispatcher.listsVisibleTo(auth)
      )
    : undefined;
  return Object.freeze({
    container,
    providers,
    boundary,
    engine,
    dispatcher,
    tasks,
    gate,
    serverFactory,
    live,
    notifier: new ChangeNotifier(live, options.bus)
  });
}

/** Whether the app runs tasks: a tool declares `task`, or the app has `tasks` settings. */
function taskCapable(options: FusionAppOptions<object>, registry: Registry): boolean {
  return options.tasks !== undefined || registry.tools.some((tool) => tool.task);
}

/** What every chain shares; built with the first registry (the continuation store depends on whether anything is interactive). */
function chainDependencies(
  options: FusionAppOptions<object>,
  registry: Registry,
  container: DependencyContainer,
  boundary: ErrorBoundary,
  tasks: AppTasks | undefined,
  log: (message: string) => void
): ChainDependencies {
  const interactive = [...registry.tools, ...registry.prompts, ...registry.templates].some((m) => m.interactive);
  const continuations: ContinuationStore =
    options.continuationStore ??
    new SignedContinuationStore(
      interactive ? resolveStateKey(options.stateKey, sharesWorkAcrossInstances(options) ? log : undefined) : randomBytes(32),
      options.stateTtlSeconds ?? 600
    );
  const opaque = opaqueTokens(options);
  return {
    container,
    boundary,
    queue: options.concurrency && 'queue' in options.concurrency ? options.concurrency.queue : new InProcessCallQueue(options.concurrency),
    mutationLock: options.mutationLock ?? new FifoMutex(),
    contextFactory: options.contextFactory as ContextFactory | undefined,
    globalMiddleware: options.middleware ?? [],
    continuations,
    tasks: tasks?.admissions,
    needsCallScope: (classes) => needsCallScope(container, classes, opaque),
    presenterTimeoutMs: positiveInt(options.presenterTimeoutMs, 10_000, 'presenterTimeoutMs'),
    telemetry: options.telemetry !== false
  };
}

/** The app's telemetry, unless it is turned off. The principal recorded (`enduser.id`) is the app's `principalOf`. */
function telemetryOf(options: FusionAppOptions<object>, queue: { readonly waiting: number }, principalOf: PrincipalOf): Telemetry | undefined {
  if (options.telemetry === false) return undefined;
  return new Telemetry(options.telemetry ?? {}, FRAMEWORK_VERSION, queue, (authInfo) =>
    principalOf(requestExtra({ subject: '', authInfo }, '', () => NEVER_ABORTED))
  );
}

const NEVER_ABORTED = new AbortController().signal;
