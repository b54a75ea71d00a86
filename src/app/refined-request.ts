/**
 * A request with some of its members changed, as `{ ...request, ...changes }` makes it, except
 * that an `httpRequest` the request reads on demand (a getter: the HTTP entry's front lanes build
 * the web `Request` only when something reads it) stays on demand in the copy instead of being
 * read, and so built, by the spread.
 */
export function refinedRequest<T extends object>(request: T, changes: Partial<T>): T {
  const onDemand = Object.getOwnPropertyDescriptor(request, 'httpRequest');
  if (onDemand?.get === undefined || 'httpRequest' in changes) return { ...request, ...changes };
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(request)) {
    if (key === 'httpRequest') Object.defineProperty(copy, key, onDemand);
    else copy[key] = (request as Record<string, unknown>)[key];
  }
  return Object.assign(copy, changes) as T;
}
