import type { DependencyContainer } from 'tsyringe';
import { checkInjection, duplicateCopies } from '../di/injection-check';
import { ConfigurationError } from '../errors';
import type { ContinuationStore } from '../interactive/continuation-store';
import type { Registry } from '../metadata/registry-builder';
import type { MemberSource } from '../metadata/member-source';
import { isMiddlewareClass } from '../pipeline/middleware';
import type { Constructor } from '../types/core';
import type { FusionAppOptions } from './app-options';
import type { MemberHome } from '../pipeline/member-spec';
import type { ProviderSpec } from '../types/provider';

/** The checks an app makes of its parts at startup (and again when its providers change): each misuse is a ConfigurationError naming the fix. */

/**
 * Whether the app is set up to share its work with other instances (a mutation lock or an event
 * bus of its own, Redis's say): only then does a random per-process state key break anything (a
 * question asked by one instance could not be answered through another), so only then is its
 * absence worth a warning. A single process, stdio and tests stay quiet.
 */
export function sharesWorkAcrossInstances(options: FusionAppOptions<object>): boolean {
  return options.mutationLock !== undefined || options.bus !== undefined;
}

/** Tokens whose providers build something per resolution (factories, transient classes): what they inject is not known ahead. */
export function opaqueTokens(options: FusionAppOptions<object>): ReadonlySet<unknown> {
  const out = new Set<unknown>();
  for (const provider of options.providers ?? []) {
    if (typeof provider === 'function') continue;
    if ('useFactory' in provider || ('useClass' in provider && provider.singleton === false)) out.add(provider.provide);
  }
  return out;
}

/** Members that declare single-use state need a store that remembers used states; exactly-once tools one that records outcomes. */
export function assertSingleUseSupported(registry: Registry, store: ContinuationStore): void {
  const exactlyOnce = registry.tools.filter((tool) => tool.exactlyOnce);
  if (exactlyOnce.length > 0 && !(store.claim && store.recordOutcome && store.releaseClaim)) {
    throw new ConfigurationError(
      `${exactlyOnce.map((m) => `${m.className}.${m.methodName}`).join(', ')} declare(s) @Interactive({ exactlyOnce: true }), ` +
        'but the continuationStore cannot record the outcome of a round (claim, recordOutcome, releaseClaim): use SignedContinuationStore ' +
        '(one process) or RedisContinuationStore (a fleet), implement the three, or drop exactlyOnce (a re-issued round is then refused as a replay).'
    );
  }
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
 * and not on every call. The copies are looked for from the current directory only when the app
 * runs classes of a project (its own or mounted members, providers, middleware, a presenter): an
 * app of gateways alone (`mcpfusion serve`) runs none, and the folder it is started in is not its project.
 */
export function assertInjectable(
  container: DependencyContainer,
  registry: Registry,
  options: FusionAppOptions<object>,
  /** The mounts' homes, by namespace (a mounted member is resolved from its mount's container). */
  mountHomes: ReadonlyMap<string, MemberHome> = new Map(),
  /** The app's gateways: their members are the framework's, not the project's. */
  sources: readonly MemberSource[] = []
): void {
  const members = [...registry.tools, ...registry.resources, ...registry.templates, ...registry.prompts];
  const sourced = new Set<unknown>(
    sources.flatMap((source) => [...source.tools(), ...(source.templates?.() ?? []), ...(source.prompts?.() ?? [])].map((m) => m.target))
  );
  const runsProjectCode =
    members.some((m) => !sourced.has(m.target)) ||
    (options.providers?.length ?? 0) > 0 ||
    (options.middleware?.length ?? 0) > 0 ||
    options.presenter !== undefined;
  // The app's own members are resolved from its container; a mounted member from its mount's (`mountedUnder`).
  const own = members.filter((m) => m.mountedUnder === undefined);
  const homes = new Map<MemberHome, typeof members>();
  for (const member of members) {
    const home = member.mountedUnder === undefined ? undefined : mountHomes.get(member.mountedUnder);
    if (home) homes.set(home, [...(homes.get(home) ?? []), member]);
  }
  const problems = [
    ...(runsProjectCode ? duplicateCopies() : []),
    ...injectionProblems(container, own, options.providers ?? [], { presenter: options.presenter, middleware: options.middleware ?? [] }),
    ...[...homes].flatMap(([home, mounted]) =>
      injectionProblems(home.container, mounted, home.providers, { middleware: [] }).map((problem) => `mount ${home.namespace}: ${problem}`)
    )
  ];
  if (problems.length > 0) {
    throw new ConfigurationError(`Cannot start: ${problems.length} problem(s) with dependency injection:\n- ${problems.join('\n- ')}`);
  }
}

/** What keeps the classes of `members` (and of the app-wide presenter and middleware given) from being built by `container`. */
function injectionProblems(
  container: DependencyContainer,
  members: readonly (
    Registry['tools'][number] | Registry['resources'][number] | Registry['templates'][number] | Registry['prompts'][number]
  )[],
  providers: readonly ProviderSpec[],
  appWide: { readonly presenter?: unknown; readonly middleware: readonly unknown[] }
): string[] {
  const classes = new Set<Constructor>();
  for (const member of members) classes.add(member.target);
  const presenters = [appWide.presenter, ...members.map((m) => ('presenter' in m ? m.presenter : undefined))];
  for (const presenter of presenters) if (typeof presenter === 'function') classes.add(presenter as Constructor);
  const middleware = [...appWide.middleware, ...members.flatMap((m) => m.middleware)];
  for (const m of middleware) if (isMiddlewareClass(m)) classes.add(m);
  for (const provider of providers) {
    if (typeof provider === 'function') classes.add(provider);
    else if ('useClass' in provider) classes.add(provider.useClass);
  }
  // Classes the container builds once: they must not inject what exists per call.
  const singletons = new Map<unknown, Constructor>();
  for (const provider of providers) {
    if (typeof provider === 'function') singletons.set(provider, provider);
    else if ('useClass' in provider && provider.singleton !== false) singletons.set(provider.provide, provider.useClass);
  }
  return checkInjection(container, classes, singletons);
}
