import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { DependencyContainer } from 'tsyringe';
import type { CallQueue } from '../concurrency/call-queue';
import type { MutationLock } from '../concurrency/fifo-mutex';
import type { ContinuationStore } from '../interactive/continuation-store';
import type { Constructor } from '../metadata/types';
import type { InputValidator } from '../schema/input-validator';
import { compose } from './compose';
import { isMiddlewareClass, type Middleware } from './middleware';
import { askStep } from './steps/ask.step';
import { capabilityCheckStep } from './steps/capability-check.step';
import { contextStep, type ContextFactory } from './steps/context.step';
import { flushStep } from './steps/flush.step';
import { generatorDriverStep } from './steps/generator-driver.step';
import { middlewareStep } from './steps/middleware.step';
import { mutationLockStep } from './steps/mutation-lock.step';
import type { NamedStep } from './steps/named-step';
import { openContinuationStep } from './steps/open-continuation.step';
import { queueStep } from './steps/queue.step';
import { scopeCheckStep } from './steps/scope-check.step';
import { timeoutStep } from './steps/timeout.step';
import { validateInputStep } from './steps/validate-input.step';

/** What every chain of an app shares. */
export interface ChainDependencies {
  readonly container: DependencyContainer;
  readonly queue: CallQueue;
  readonly mutationLock: MutationLock;
  readonly contextFactory?: ContextFactory;
  readonly globalMiddleware: readonly Middleware[];
  readonly continuations: ContinuationStore;
  /** Whether resolving these classes reaches a per-call token (decided at startup; see `needsCallScope`). */
  readonly needsCallScope: (classes: readonly Constructor[]) => boolean;
}

/** The classes a call resolves for a member: its own, and its middleware and presenter classes. */
export function resolvedClasses(target: Constructor, middleware: readonly Middleware[], presenter?: unknown): Constructor[] {
  const classes: Constructor[] = [target];
  for (const m of middleware) if (isMiddlewareClass(m)) classes.push(m);
  if (typeof presenter === 'function') classes.push(presenter as Constructor);
  return classes;
}

/** What one member's chain is made of: the stages that apply to it, and its own presentation and terminal steps. */
export interface ChainSpec {
  /** The member's name in messages (`billing.refund`), and as it is labelled there (`Tool billing.refund`). */
  readonly name: string;
  readonly label: string;
  readonly requires?: ClientCapabilities;
  /** OAuth scopes the caller's token must grant (the scope check runs first where there are any). */
  readonly scopes?: readonly string[];
  readonly timeoutMs?: number;
  /** Shapes the terminal's value into the protocol result. */
  readonly present: NamedStep;
  readonly interactive: boolean;
  readonly mutation: boolean;
  readonly isGenerator: boolean;
  /** Class, then method middleware (global middleware is added here). */
  readonly middleware: readonly Middleware[];
  /** Validates the raw arguments; absent where there are none to validate (a completion's value). */
  readonly validate?: InputValidator;
  /** Whether the member's classes inject per-call tokens (a child container per call). */
  readonly perCall: boolean;
  readonly terminal: NamedStep;
}

/**
 * Builds one member's chain, once, at startup, for every kind alike:
 *
 *   scope-check? → flush → capability-check? → timeout? → present → ask? → queue → context →
 *   middleware (global, class, method) → mutation-lock? → generator-driver? →
 *   validate-input? → open-continuation? → terminal
 *
 * Outer stages finish after inner ones: the queue slot and the mutation lock are free before
 * a request for input is sealed and before the result is presented; progress and log messages
 * are flushed last, before the response.
 */
export function buildChain(spec: ChainSpec, deps: ChainDependencies): { steps: readonly NamedStep[]; run: ReturnType<typeof compose> } {
  const steps: NamedStep[] = [];
  if (spec.scopes && spec.scopes.length > 0) steps.push(scopeCheckStep(spec.label, spec.scopes));
  steps.push(flushStep());
  if (spec.requires) steps.push(capabilityCheckStep(spec.name, spec.requires));
  if (spec.timeoutMs !== undefined) steps.push(timeoutStep(spec.label, spec.timeoutMs));
  steps.push(spec.present);
  if (spec.interactive) steps.push(askStep(deps.continuations, spec.label));
  steps.push(queueStep(deps.queue), contextStep(deps.container, deps.contextFactory, spec.perCall));
  steps.push(...[...deps.globalMiddleware, ...spec.middleware].map(middlewareStep));
  if (spec.mutation) steps.push(mutationLockStep(deps.mutationLock));
  if (spec.isGenerator) steps.push(generatorDriverStep());
  if (spec.validate) steps.push(validateInputStep(spec.name, spec.validate));
  if (spec.interactive) steps.push(openContinuationStep(deps.continuations));
  steps.push(spec.terminal);
  return { steps: Object.freeze(steps), run: compose(steps.map((s) => s.run)) };
}
