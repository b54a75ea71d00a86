import type { DependencyContainer } from 'tsyringe';
import { checkInjection, duplicateCopies } from '../di/injection-check';
import { ConfigurationError } from '../errors';
import type { ContinuationStore } from '../interactive/continuation-store';
import type { Registry } from '../metadata/registry-builder';
import { isMiddlewareClass } from '../pipeline/middleware';
import type { Constructor } from '../types/core';
import type { FusionAppOptions } from './app-options';

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
 * and not on every call.
 */
export function assertInjectable(container: DependencyContainer, registry: Registry, options: FusionAppOptions<object>): void {
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
