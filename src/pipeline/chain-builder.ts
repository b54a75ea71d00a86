import type { DependencyContainer } from 'tsyringe';
import type { CallQueue } from '../concurrency/call-queue';
import type { MutationLock } from '../concurrency/fifo-mutex';
import type { ContinuationStore } from '../interactive/continuation-store';
import type { ContextFactory } from '../types/context';
import type { Constructor } from '../types/core';
import type { Middleware } from '../types/middleware';
import type { CallState } from './call-state';
import type { MemberHome, MemberSpec } from './member-spec';
import { compose } from './compose';
import { ConfigurationError } from '../errors';
import { queueAdmission } from '../concurrency/slot-takers';
import type { Admission } from '../concurrency/engine-slots';
import type { ErrorBoundary } from './error-boundary';
import { askStep } from './steps/ask.step';
import { capabilityCheckStep } from './steps/capability-check.step';
import { contextStep } from './steps/context.step';
import { decidingStep } from './steps/deciding.step';
import { errorBoundaryStep, type OutcomeMapping } from './steps/error-boundary.step';
import { flushStep } from './steps/flush.step';
import { generatorDriverStep } from './steps/generator-driver.step';
import { keyedLockStep } from './steps/keyed-lock.step';
import { middlewareStep } from './steps/middleware.step';
import { mutationLockStep } from './steps/mutation-lock.step';
import type { ExitHook, NamedStep } from './steps/named-step';
import { openContinuationStep } from './steps/open-continuation.step';
import { queueStep } from './steps/queue.step';
import { scopeCheckStep } from './steps/scope-check.step';
import { callLifeCheckStep, callLifeStep, type ExtensionLife } from './steps/call-life.step';
import type { CallLifeTool } from '../extensions/call-life';
import { timeoutStep } from './steps/timeout.step';
import { validateInputStep } from './steps/validate-input.step';
import { traceStage, type StageTrace } from './stage-tracing';

/** What every chain of an app shares. */
export interface ChainDependencies {
  readonly container: DependencyContainer;
  readonly boundary: ErrorBoundary;
  readonly queue: CallQueue;
  readonly mutationLock: MutationLock;
  readonly contextFactory?: ContextFactory;
  /** Global middleware, run before every member's class and method middleware. */
  readonly globalMiddleware: readonly Middleware[];
  readonly continuations: ContinuationStore;
  /** The extensions' call-life points (absent or empty: none), each placed in the chains of the tools it applies to. */
  readonly callLives?: readonly ExtensionLife[];
  /** Whether resolving these classes reaches a per-call token (decided at startup; see `needsCallScope`). */
  /** The mounts' homes (their containers and contextFactory), by namespace: where a mounted member lives (`MemberSpec.mountedUnder`). */
  readonly homes?: ReadonlyMap<string, MemberHome>;
  readonly needsCallScope: (classes: readonly Constructor[]) => boolean;
  /** How long a tool's presenter may take once the tool has run (ms): beyond, a PresentationError. */
  readonly presenterTimeoutMs: number;
  /** Whether the stages are traced (the app has telemetry): each traced stage is wrapped once, here. */
  readonly telemetry?: boolean;
}

/**
 * What one member's chain is made of: the member's spec as compiled (`MemberSpec`), with its
 * middleware merged (global, class, method) and whether its classes inject per-call tokens.
 */
export type ChainSpec = Omit<MemberSpec, 'middleware'> & {
  /** Every middleware of the member, in order: global, class, method. */
  readonly middleware: readonly Middleware[];
  /** Whether the member's classes inject per-call tokens (a child container per call). */
  readonly perCall: boolean;
  /** The call-life points that apply to it (tools only; asked at startup), outermost first. */
  readonly callLives: readonly ExtensionLife[];
};

/** A member's chain: its steps as described (the error boundary first), its inner steps composed, and the boundary's mapping. */
export interface CompiledChain {
  readonly steps: readonly NamedStep[];
  /** The steps inside the error boundary, composed (every one gated by the call's abort). */
  readonly run: (state: CallState) => Promise<unknown>;
  /** What the engine makes of what `run` settles with (the error boundary's mapping). */
  readonly outcome: OutcomeMapping;
  /**
   * The chain's leading exit hooks (flush, an untraced presentation), outermost first: not in
   * `run`, the engine applies them to what `run` settles with, in the reaction that finishes the
   * call (a call in flight keeps no promise of theirs). Only checks made on the way in stand
   * between them and the boundary, so the order on the way out is the chain's.
   */
  readonly exits: readonly ExitHook[];
  /**
   * Where every step outside the queue does nothing before it calls `next` (flush, present, ask):
   * the queue's take, which the engine runs before it enters the chain (unless the request's
   * stage waits are timed, which the queue step measures),
   * so that a call waiting for its slot has made nothing of its chain yet (the queue step then
   * holds the slot it was admitted with). Absent otherwise: the queue step takes the slot.
   */
  readonly admit: Admission | undefined;
}

/**
 * Builds one member's chain, once, at startup, for every kind alike:
 *
 *   error-boundary → scope-check? → call-life-check* → capability-check? → flush → timeout? → present → ask? →
 *   queue → context → middleware (global, class, method) → mutation-lock? → validate-input? →
 *   keyed-lock? → open-continuation? → call-life* → generator-driver? → terminal
 *
 * A mutation has one of the two locks: app-wide (`mutation-lock`, before validation, as always)
 * or keyed (`keyed-lock`, after it: its keys are computed from the validated input).
 *
 * Outer stages finish after inner ones: the queue slot and the mutation lock are free before
 * a request for input is sealed and before the result is presented; progress and log messages
 * are flushed before the response; the boundary sees every failure, and the outcome of a call
 * that answered early. An extension's call-life point (`call-life`, one per extension that
 * applies: the tasks extension's makes calls into tasks) wraps the handler alone: what it sees
 * is the handler's own waiting (a question asked before any work, sealed by the ask step, stays
 * in the request), and a call that answers early keeps its queue slot and lock while the handler
 * runs on.
 */
export function buildChain(spec: ChainSpec, deps: ChainDependencies): CompiledChain {
  const t: (step: NamedStep, how: StageTrace) => NamedStep = deps.telemetry === true ? traceStage : (step) => step;
  const { name, interactive, scopes } = spec.info;
  const handler = `handler ${name}`;
  const boundary = errorBoundaryStep(deps.boundary, spec.kind);
  const steps: NamedStep[] = [boundary];
  if (scopes.length > 0) steps.push(scopeCheckStep(spec.label, scopes));
  const tool: CallLifeTool = Object.freeze({ ...spec.info, ...(spec.task ? { task: spec.task } : {}) });
  // The extensions' checks of this tool's calls (decided here, once): the tasks extension's refuses a `task: 'required'` call.
  for (const { id, life } of spec.callLives) {
    const check = life.checkFor?.(tool);
    if (check !== undefined && typeof check !== 'function')
      throw new ConfigurationError(`extension ${id}: callLife.checkFor(${name}) must return a function or undefined`);
    if (check) steps.push(callLifeCheckStep(id, check, tool));
  }
  if (spec.requires) steps.push(capabilityCheckStep(name, spec.requires));
  steps.push(flushStep());
  if (spec.timeoutMs !== undefined) steps.push(timeoutStep(spec.label, spec.timeoutMs));
  steps.push(t(spec.present, { stage: 'present', span: 'present', shape: 'after' }));
  if (interactive) steps.push(askStep(deps.continuations, spec.label));
  const queue = deps.queue;
  steps.push(t(queueStep(queue), { stage: 'queue', span: 'queue', shape: 'wait', depth: () => queue.waiting }));
  steps.push(contextStep(deps.contextFactory, spec.perCall));
  for (const middleware of spec.middleware) {
    steps.push(
      t(middlewareStep(middleware), { stage: 'middleware', span: `middleware ${middleware.name || 'anonymous'}`, shape: 'whole' })
    );
  }
  if (spec.mutation === true && !spec.lockKeys)
    steps.push(t(mutationLockStep(deps.mutationLock), { stage: 'mutation-lock', span: 'mutation-lock', shape: 'wait' }));
  if (spec.validate)
    steps.push(t(validateInputStep(name, spec.validate), { stage: 'validate-input', span: 'validate-input', shape: 'wait' }));
  if (spec.mutation === true && spec.lockKeys) {
    steps.push(t(keyedLockStep(deps.mutationLock, name, spec.lockKeys), { stage: 'mutation-lock', span: 'keyed-lock', shape: 'wait' }));
  }
  if (interactive) steps.push(openContinuationStep(deps.continuations));
  for (const life of spec.callLives) steps.push(callLifeStep(life, tool));
  // The handler's span: a generator's covers its driving (the method itself only makes the generator).
  // Its settling decides the call's outcome (see deciding.step.ts): the driver's for a generator.
  if (spec.isGenerator === true)
    steps.push(t(decidingStep(generatorDriverStep()), { stage: 'handler', span: handler, shape: 'whole' }), spec.terminal);
  else steps.push(t(decidingStep(spec.terminal), { stage: 'handler', span: handler, shape: 'whole' }));
  // The boundary is the chain's first step as described; the engine applies its mapping around the
  // inner steps (`outcome`), in the reaction that finishes the call, so the inner ones are gated from the first.
  const queueAt = steps.findIndex((s) => s.name === 'queue');
  const admitFirst = steps.slice(1, queueAt).every((s) => s.afterOnly === true);
  const { exits, inner } = hoistExits(steps.slice(1));
  return {
    steps: Object.freeze(steps),
    run: compose(
      inner.map((s) => s.run),
      true
    ),
    outcome: boundary,
    exits,
    admit: admitFirst ? queueAdmission(queue) : undefined
  };
}

/**
 * The leading steps that are only exit hooks (checks made on the way in may stand among them:
 * they return what the rest returns), taken out of the composed chain for the engine to apply;
 * the first step that wraps the rest otherwise (the timeout, a traced stage, the queue) ends them.
 */
function hoistExits(steps: readonly NamedStep[]): { exits: readonly ExitHook[]; inner: readonly NamedStep[] } {
  const exits: ExitHook[] = [];
  const inner: NamedStep[] = [];
  let i = 0;
  for (; i < steps.length; i++) {
    const step = steps[i]!;
    if (step.exit) exits.push(step.exit);
    else if (step.beforeOnly === true) inner.push(step);
    else break;
  }
  return { exits: Object.freeze(exits), inner: [...inner, ...steps.slice(i)] };
}
