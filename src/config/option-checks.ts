import { ConfigurationError } from '../errors';

/**
 * The checks of numeric options, written once: app options, decorator options, stores and
 * locks all say a bad value the same way (a ConfigurationError naming the option and the value).
 */

/** A positive whole number, or `fallback` when absent. */
export function positiveInt(value: unknown, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new ConfigurationError(`${name} must be a positive whole number (got ${String(value)}).`);
  }
  return value;
}

/** A whole number of at least `min`, or `fallback` when absent. */
export function intAtLeast(value: unknown, min: number, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new ConfigurationError(`${name} must be a whole number of at least ${min} (got ${String(value)}).`);
  }
  return value;
}

/** The problem with a duration in milliseconds (a positive finite number), or undefined when it is fine or absent. */
export function durationProblem(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    return `${name} must be a positive number of milliseconds (got ${String(value)}).`;
  }
  return undefined;
}

/** The problem with an `output` option (a class or `[Class]`), or undefined when it is fine or absent. */
export function outputProblem(output: unknown): string | undefined {
  if (output === undefined) return undefined;
  if (typeof output === 'function' || (Array.isArray(output) && output.length === 1 && typeof output[0] === 'function')) return undefined;
  return `output must be a class or [Class] (got ${String(output)}).`;
}
