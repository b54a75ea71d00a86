import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import type { Violation } from '../errors';
import type { Constructor } from '../metadata/types';

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_NESTING = 32;

/**
 * Validates raw tool arguments against an input class. Returns the instance, or every
 * violation by property path. Policy for properties the class does not declare: they
 * are refused ("property x should not exist"), never passed on or silently dropped.
 */
export async function validateInput(
  type: Constructor | undefined,
  raw: Readonly<Record<string, unknown>>
): Promise<{ value: object; violations?: undefined } | { value?: undefined; violations: Violation[] }> {
  const structural = checkStructure(raw);
  if (structural.length > 0) return { violations: structural };
  if (!type) {
    const extra = Object.keys(raw).map((key) => ({
      path: key,
      message: `property ${key} should not exist (this tool takes no arguments)`
    }));
    return extra.length > 0 ? { violations: extra } : { value: {} };
  }
  const instance = plainToInstance(type, raw, { enableImplicitConversion: false }) as object;
  // Synchronous: class-validator's async form only adds promise overhead for the built-in
  // constraints. (Custom async constraints are not supported on input classes; see the README.)
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false }
  });
  if (errors.length === 0) return { value: instance };
  const violations: Violation[] = [];
  flatten(errors, '', violations);
  return { violations };
}

function flatten(errors: readonly ValidationError[], prefix: string, out: Violation[]): void {
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    for (const message of Object.values(error.constraints ?? {})) out.push({ path, message });
    if (error.children?.length) flatten(error.children, path, out);
  }
}

/** Refuses keys that could reach object prototypes, and absurd nesting, before any conversion. */
function checkStructure(raw: unknown): Violation[] {
  const out: Violation[] = [];
  const walk = (node: unknown, path: string, depth: number): void => {
    if (node === null || typeof node !== 'object') return;
    if (depth > MAX_NESTING) {
      out.push({ path, message: `nesting deeper than ${MAX_NESTING} levels is not accepted` });
      return;
    }
    for (const key of Object.keys(node)) {
      const child = path ? `${path}.${key}` : key;
      if (FORBIDDEN_KEYS.has(key)) out.push({ path: child, message: `property name ${key} is not allowed` });
      else walk((node as Record<string, unknown>)[key], child, depth + 1);
    }
  };
  walk(raw, '', 0);
  return out;
}
