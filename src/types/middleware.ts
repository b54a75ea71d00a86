/** Middleware as users write it: types only (a leaf of the import graph). */
import type { CallContext } from './context';
import type { Constructor } from './core';

/** Runs the rest of the chain; returns what the handler returned. Call it at most once. */
export type Next = () => Promise<unknown>;

/** A middleware function: `(ctx, next)`, onion style. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type MiddlewareFn<C extends object = any> = (ctx: CallContext<C>, next: Next) => unknown;

/** A middleware class, resolved from the call's container (so it can inject services). */
export interface FusionMiddleware {
  /** Runs around the rest of the chain: call `next()` at most once and return (or transform) what it resolves to. */
  use(ctx: CallContext, next: Next): unknown;
}

/** A middleware function, or a class implementing {@link FusionMiddleware}. */
export type Middleware = MiddlewareFn | Constructor<FusionMiddleware>;
