import type { Constructor } from '../types/core';
import type { FusionMiddleware } from '../types/middleware';

/** Whether a middleware is a class (resolved from the call's container) rather than a function. */
export function isMiddlewareClass(value: unknown): value is Constructor<FusionMiddleware> {
  return typeof value === 'function' && typeof (value.prototype as { use?: unknown } | undefined)?.use === 'function';
}
