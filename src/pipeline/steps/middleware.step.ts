import type { CallState } from '../call-state';
import { isMiddlewareClass } from '../middleware';
import type { FusionMiddleware, Middleware, MiddlewareFn } from '../../types/middleware';
import { named, type NamedStep } from './named-step';

/** Adapts one user middleware (function or class) to a chain step. */
export function middlewareStep(middleware: Middleware): NamedStep {
  const label = `middleware:${middleware.name || 'anonymous'}`;
  if (isMiddlewareClass(middleware)) {
    return named(label, (state: CallState, next) =>
      (state.resolver().resolve(middleware) as FusionMiddleware).use(state.ctx, () => next(state))
    );
  }
  return named(label, (state: CallState, next) => (middleware as MiddlewareFn)(state.ctx, () => next(state)));
}
