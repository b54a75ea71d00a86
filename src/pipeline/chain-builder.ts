import type { DependencyContainer } from 'tsyringe';
import type { CallQueue } from '../concurrency/call-queue';
import type { MutationLock } from '../concurrency/fifo-mutex';
import type { ContinuationStore } from '../interactive/continuation-store';
import type { ToolDescriptor } from '../metadata/tool-descriptor';
import type { InputValidator } from '../schema/input-validator';
import { compose } from './compose';
import type { Middleware } from './middleware';
import { abortGateStep } from './steps/abort-gate.step';
import { contextStep, type ContextFactory } from './steps/context.step';
import { generatorDriverStep } from './steps/generator-driver.step';
import { handlerStep } from './steps/handler.step';
import { inputStep } from './steps/input.step';
import { middlewareStep } from './steps/middleware.step';
import { mutationLockStep } from './steps/mutation-lock.step';
import type { NamedStep } from './steps/named-step';
import { queueStep } from './steps/queue.step';

/** What every chain of an app shares. */
export interface ChainDependencies {
  readonly container: DependencyContainer;
  readonly queue: CallQueue;
  readonly mutationLock: MutationLock;
  readonly contextFactory?: ContextFactory;
  readonly globalMiddleware: readonly Middleware[];
  readonly continuations: ContinuationStore;
}

/**
 * Builds one tool's chain, once, at startup: queue → abort gate → context →
 * middleware (global, class, method) → mutation lock (mutations only) → generator
 * driver (generator methods only) → input → handler.
 */
export function buildChain(
  descriptor: ToolDescriptor,
  deps: ChainDependencies,
  validator: InputValidator
): { steps: readonly NamedStep[]; run: ReturnType<typeof compose> } {
  const steps: NamedStep[] = [
    queueStep(deps.queue),
    abortGateStep(),
    contextStep(deps.container, deps.contextFactory),
    ...[...deps.globalMiddleware, ...descriptor.middleware].map(middlewareStep)
  ];
  if (descriptor.kind === 'mutation') steps.push(mutationLockStep(deps.mutationLock));
  if (descriptor.isGenerator) steps.push(generatorDriverStep());
  steps.push(inputStep(deps.continuations, validator), handlerStep(descriptor));
  return { steps: Object.freeze(steps), run: compose(steps.map((s) => s.run)) };
}
