/**
 * Reading maps that came off the wire. Everything here reads OWN properties only: a key the
 * client sent never resolves through a prototype, and the keys that reach prototypes
 * (`__proto__`, `constructor`, `prototype`) never select anything, whatever copy of the map
 * (the SDK's or ours) turned one of them into a prototype.
 */

/** Property names that could reach object prototypes. */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Whether `key` is one of the names that could reach a prototype. */
export function isPrototypeKey(key: string): boolean {
  return PROTOTYPE_KEYS.has(key);
}

/** An own, non-prototype-key property of `map`, else `undefined` (also when `map` is not an object). */
export function ownValue(map: unknown, key: string): unknown {
  if (map === null || typeof map !== 'object' || isPrototypeKey(key)) return undefined;
  return Object.prototype.hasOwnProperty.call(map, key) ? (map as Record<string, unknown>)[key] : undefined;
}

/** A null-prototype copy of the own enumerable entries of `map`, prototype keys dropped. */
export function ownRecord<T = unknown>(map: unknown): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  if (map === null || typeof map !== 'object' || Array.isArray(map)) return out;
  for (const key of Object.keys(map)) {
    if (!isPrototypeKey(key)) out[key] = (map as Record<string, T>)[key];
  }
  return out;
}

/** Whether `value` is a plain JSON object as JSON.parse builds it (prototype Object.prototype or null). */
export function isPlainJsonObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
