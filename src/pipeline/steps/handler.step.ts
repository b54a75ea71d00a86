import type { ToolDescriptor } from '../../metadata/tool-descriptor';
import type { CallState } from '../call-state';
import { named, type NamedStep } from './named-step';

/**
 * Resolves a fresh instance of the tool class from the call's container and calls the
 * method with its decorated parameters. (A handler that ignores its signal cannot hold the
 * queue slot or the mutation lock: the slot steps race the abort.)
 */
export function handlerStep(descriptor: ToolDescriptor): NamedStep {
  const { target, methodName, params } = descriptor;
  const argumentFor = params.map((kind) =>
    kind === 'input' ? (s: CallState) => s.input : kind === 'signal' ? (s: CallState) => s.signal : (s: CallState) => s.ctx
  );
  return named('handler', (state) => {
    const instance = state.container!.resolve(target) as Record<string, (...args: unknown[]) => unknown>;
    return instance[methodName](...argumentFor.map((get) => get(state)));
  });
}
