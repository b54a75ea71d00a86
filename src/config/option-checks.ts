import { ConfigurationError } from '../errors';

/**
 * The checks of option values, written once: app options, decorator options, stores and locks
 * all say a bad value the same way (naming the option and the value). Each check comes in two
 * forms: `…Problem` returns the sentence (undefined when the value is fine or absent), for the
 * callers that collect every problem before reporting (the registry) or throw an error of their
 * own; the other returns the value, or `fallback` when absent, and throws a ConfigurationError.
 * `name` is how the sentence names the option, prefix included (`tasks.ttlMs`, `Sub.method: timeoutMs`).
 */

/** The problem with a whole number of at least `min` (said "positive" when `min` is 1), or undefined when it is fine or absent. */
export function intProblem(value: unknown, min: number, name: string): string | undefined {
  if (value === undefined || (typeof value === 'number' && Number.isSafeInteger(value) && value >= min)) return undefined;
  return `${name} must be ${min === 1 ? 'a positive whole number' : `a whole number of at least ${min}`} (got ${String(value)}).`;
}

/** A whole number of at least `min`, or `fallback` when absent. */
export function intAtLeast(value: unknown, min: number, fallback: number, name: string): number {
  return checked(intProblem(value, min, name), value, fallback);
}

/** A positive whole number, or `fallback` when absent. */
export function positiveInt(value: unknown, fallback: number, name: string): number {
  return intAtLeast(value, 1, fallback, name);
}

/** What a duration must be besides positive: `whole` for one passed where only whole milliseconds are taken (Redis `PX`). */
export interface DurationShape {
  readonly whole?: boolean;
}

/** The problem with a duration in milliseconds (a positive finite number), or undefined when it is fine or absent. */
export function durationProblem(value: unknown, name: string, { whole = false }: DurationShape = {}): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && (whole ? Number.isSafeInteger(value) : Number.isFinite(value)) && value > 0) return undefined;
  return `${name} must be a positive ${whole ? 'whole ' : ''}number of milliseconds (got ${String(value)}).`;
}

/** A duration in milliseconds, or `fallback` when absent. */
export function duration(value: unknown, fallback: number, name: string, shape: DurationShape = {}): number {
  return checked(durationProblem(value, name, shape), value, fallback);
}

/** The problem with an `output` option (a class or `[Class]`), or undefined when it is fine or absent. */
export function outputProblem(output: unknown, name = 'output'): string | undefined {
  if (output === undefined) return undefined;
  if (typeof output === 'function' || (Array.isArray(output) && output.length === 1 && typeof output[0] === 'function')) return undefined;
  return `${name} must be a class or [Class] (got ${String(output)}).`;
}

function checked(problem: string | undefined, value: unknown, fallback: number): number {
  if (problem !== undefined) throw new ConfigurationError(problem);
  return value === undefined ? fallback : (value as number);
}
