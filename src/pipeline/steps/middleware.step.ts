import type { CallContext } from '../call-context';
import type { CallState } from '../call-state';
import type { FusionMiddleware, Middleware, MiddlewareFn } from '../middleware';
import { named, type NamedStep } from './named-step';

/** Adapts one user middleware (function or class) to a chain step. */
export function middlewareStep(middleware: Middleware): NamedStep {
  const label = `middleware:${middleware.name || 'anonymous'}`;
  if (isClass(middleware)) {
    return named(label, (state: CallState, next) =>
      (state.scope!.resolver().resolve(middleware) as FusionMiddleware).use(state.ctx as CallContext, next)
    );
  }
  return named(label, (state: CallState, next) => (middleware as MiddlewareFn)(state.ctx as CallContext, next));
}

function isClass(value: Middleware): value is new () => FusionMiddleware {
  return typeof value === 'function' && typeof (value.prototype as { use?: unknown } | undefined)?.use === 'function';
}
