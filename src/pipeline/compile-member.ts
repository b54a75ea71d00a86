import type { Constructor } from '../types/core';
import { buildChain, type ChainDependencies } from './chain-builder';
import type { CompiledMember } from './call-state';
import type { MemberSpec } from './member-spec';
import { isMiddlewareClass } from './middleware';
import type { ExtensionLife } from './steps/call-life.step';
import { mountedUrisStep } from './steps/mounted-uris.step';

/**
 * The one compile path: every kind of member becomes a chain here, fed with its own
 * presentation and terminal steps; global middleware is merged here and nowhere else. The chain
 * is built from the spec itself, with the two facts only this step knows (the merged
 * middleware, whether the classes inject per-call tokens).
 */
export function compileMember(spec: MemberSpec, appDeps: ChainDependencies): CompiledMember {
  const { info } = spec;
  const home = spec.mountedUnder === undefined ? undefined : appDeps.homes?.get(spec.mountedUnder);
  // A mounted member resolves from its mount's container and uses its mount's contextFactory (else the app's).
  const deps: ChainDependencies = home
    ? {
        ...appDeps,
        container: home.container,
        contextFactory: home.contextFactory ?? appDeps.contextFactory,
        needsCallScope: home.needsCallScope
      }
    : appDeps;
  const middleware = [...deps.globalMiddleware, ...spec.middleware];
  const classes: Constructor[] = [spec.target, ...middleware.filter(isMiddlewareClass)];
  if (spec.presenterClass) classes.push(spec.presenterClass);
  const callLives = spec.kind === 'tool' ? livesFor(spec, deps) : NONE;
  // What a mounted tool or prompt answers names its resources as the app in front serves them.
  const present =
    spec.mountedUnder !== undefined && (spec.kind === 'tool' || spec.kind === 'prompt')
      ? mountedUrisStep(spec.mountedUnder, spec.present)
      : spec.present;
  const { steps, run, outcome, exits, admit } = buildChain(
    { ...spec, present, middleware, perCall: deps.needsCallScope(classes), callLives },
    deps
  );
  return Object.freeze({
    kind: spec.kind,
    info,
    bindingName: spec.bindingName ?? info.name,
    singleUseState: info.interactive && spec.singleUseState,
    answersUpFront: spec.answersUpFront === true,
    exactlyOnce: info.interactive && spec.exactlyOnce === true,
    ambientInput: info.interactive && spec.inputScopeParam !== true,
    mayBecomeTask: callLives.length > 0,
    steps,
    run,
    outcome,
    exits,
    admit,
    ...(home ? { container: home.container } : {})
  });
}

const NONE: readonly ExtensionLife[] = Object.freeze([]);

/** The extensions' call-life points that apply to a tool (each asked once, here, at startup). */
function livesFor(spec: MemberSpec, deps: ChainDependencies): readonly ExtensionLife[] {
  const lives = deps.callLives ?? NONE;
  if (lives.length === 0) return NONE;
  const tool = { ...spec.info, ...(spec.task ? { task: spec.task } : {}) };
  return lives.filter(({ life }) => life.appliesTo(tool) === true);
}
