import { ConfigurationError } from '../../errors';
import type { ContextFactory } from '../../types/context';
import type { CallState } from '../call-state';
import { named, type NamedStep } from './named-step';

/**
 * The fields of every call context that the framework owns (`CallContextBase`): a
 * `contextFactory` that returns one of them is refused, never silently shadowed.
 */
export const RESERVED_CONTEXT_FIELDS: ReadonlySet<string> = new Set([
  'signal',
  'tool',
  'args',
  'requestId',
  'sessionId',
  'progress',
  'log',
  'clientCapabilities',
  'auth',
  'lock',
  'closeStream',
  'requestSignal',
  'container'
]);

/**
 * Enters the call's scope, inside the queue: opens its child container where the member needs
 * one (`perCall`, decided at startup), and adds what `contextFactory` made (awaited and raced
 * against the abort) to the call's context, which the engine built before the chain ran.
 * Without a factory nothing is awaited here.
 */
export function contextStep(factory: ContextFactory | undefined, perCall: boolean): NamedStep {
  if (!factory) {
    return named('context', (state, next) => {
      if (perCall) state.openScope();
      return next(state);
    });
  }
  return named('context', async (state, next) => {
    const made = await state.aborter.race(Promise.resolve(factory(state.requestExtra())));
    if (made && typeof made === 'object') addToContext(state, made);
    if (perCall) state.openScope();
    return next(state);
  });
}

function addToContext(state: CallState, made: object): void {
  const reserved = Object.keys(made).filter((key) => RESERVED_CONTEXT_FIELDS.has(key));
  if (reserved.length > 0) {
    throw new ConfigurationError(
      `contextFactory returned ${reserved.join(', ')}, which the framework sets on every call context: ` +
        "rename the field (ctx.signal, ctx.auth, ctx.tool and the rest are always the framework's)."
    );
  }
  Object.assign(state.ctx, made);
}
