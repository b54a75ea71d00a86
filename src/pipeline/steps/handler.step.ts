import { raceAbort } from '../../concurrency/abort';
import type { ToolDescriptor } from '../../metadata/tool-descriptor';
import type { CallState } from '../call-state';
import { named, type NamedStep } from './named-step';

/**
 * Resolves a fresh instance of the tool class from the call's container and calls the
 * method with its decorated parameters. A promise result races the abort, so a handler
 * that ignores its signal still cannot hold its queue slot or the mutation lock.
 */
export function handlerStep(descriptor: ToolDescriptor): NamedStep {
  const { target, methodName, params } = descriptor;
  const argumentFor = params.map((kind) =>
    kind === 'input' ? (s: CallState) => s.input : kind === 'signal' ? (s: CallState) => s.signal : (s: CallState) => s.ctx
  );
  return named('handler', (state) => {
    const instance = state.container!.resolve(target) as Record<string, (...args: unknown[]) => unknown>;
    const result = instance[methodName](...argumentFor.map((get) => get(state)));
    return result instanceof Promise ? raceAbort(result, state.signal) : result;
  });
}
