import type { ValidationError } from 'class-validator';
import type { Violation } from '../errors';
import type { Constructor } from '../types/core';
import { isPrototypeKey } from '../wire/own-properties';
import type { SchemaCheck, SchemaViolation } from './schema-check';
import { instantiate } from './schema-exactness';
import { classTransformer, classValidator } from './validation-libraries';

const MAX_NESTING = 32;

/**
 * Above this many values, arguments the listed schema refuses are reported with the schema's
 * messages alone (class-validator's, which name the decorators, need the conversion first).
 */
const MAX_NODES_FOR_CLASS_MESSAGES = 10_000;

/** What validating raw arguments gives: the input instance, or every violation. */
export type ValidationOutcome = { value: object; violations?: undefined } | { value?: undefined; violations: Violation[] };

/** Validates raw arguments (of a tool, a resource template, a prompt); built once per member. */
export type InputValidator = (raw: Readonly<Record<string, unknown>>) => ValidationOutcome;

/**
 * Builds the validator of an input class (or of "no input": only `{}`). The structure first
 * (keys that reach prototypes, absurd nesting), before any conversion; then the listed schema,
 * so that nothing the listed `inputSchema` forbids gets through; then the class's validators
 * (class-transformer, then class-validator). The messages say what is wrong in the schema's
 * terms where the schema can say it (`id is required`, `id must be an integer, not a string`);
 * class-validator's messages are kept only for properties the schema found nothing wrong with,
 * that is for what the schema cannot express (custom constraints, cross-field rules). Where the
 * listed schema implies the class's validators (`schemaIsExact`, see `schemaImpliesClass`), an
 * input it accepts skips them. Properties the class does not declare are refused
 * ("property x should not exist"), never passed on or silently dropped.
 */
export function createInputValidator(type: Constructor | undefined, listed: SchemaCheck, schemaIsExact = false): InputValidator {
  return (raw) => {
    const { violations: structural, nodes } = checkStructure(raw);
    if (structural.length > 0) return { violations: structural };
    const schemaViolations = listed(raw);
    // Where the listed schema carries every constraint of the class (decided at startup), its
    // acceptance is the class's: the instance is built without class-transformer and class-validator.
    if (schemaIsExact && type && schemaViolations.length === 0) {
      const value = instantiate(type, raw);
      if (value) return { value };
    }
    // Converting into the class costs per value; an input the listed schema refuses is not
    // converted when it is large, so a huge invalid body cannot hold the server up.
    if (schemaViolations.length > 0 && nodes > MAX_NODES_FOR_CLASS_MESSAGES) return { violations: schemaViolations.map(plain) };
    // A member without input: its own message says why any key is refused.
    if (!type) return noInput(raw);
    const outcome = validateClass(type, raw);
    if (schemaViolations.length === 0) return outcome;
    return { violations: merge(schemaViolations, outcome.violations ?? []) };
  };
}

/** The schema keywords that say what is wrong with the input's shape: their message is the schema's. */
const SHAPE_KEYWORDS: ReadonlySet<string> = new Set(['required', 'type', 'additionalProperties']);

/**
 * One line per problem, in the clearest words available: a missing property, a wrong type or
 * an undeclared property in the schema's words (`id is required`, `id must be an integer, not a
 * string`), never with the messages class-validator adds about the value that is not there; a
 * value constraint (bounds, lengths, patterns, enums) in class-validator's words where it has
 * some for that property (they may be the application's own `message`), else the schema's; and
 * class-validator's violations on properties the schema found nothing wrong with, which are what
 * the schema cannot express (custom constraints, cross-field rules).
 */
function merge(fromSchema: readonly SchemaViolation[], fromClass: readonly Violation[]): Violation[] {
  const out: Violation[] = [];
  const taken = new Set<string>();
  for (const violation of fromSchema) {
    const own = SHAPE_KEYWORDS.has(violation.keyword) ? [] : fromClass.filter((v) => v.path === violation.path);
    if (own.length === 0) out.push(plain(violation));
    else if (!taken.has(violation.path)) out.push(...own);
    taken.add(violation.path);
  }
  const related = (a: string, b: string) => a === b || a === '' || b === '' || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
  return [...out, ...fromClass.filter((v) => !fromSchema.some((s) => related(s.path, v.path)))];
}

const plain = ({ path, message }: Violation): Violation => ({ path, message });

function noInput(raw: Readonly<Record<string, unknown>>): ValidationOutcome {
  const extra = Object.keys(raw).map((key) => ({ path: key, message: `property ${key} should not exist (this tool takes no arguments)` }));
  return extra.length > 0 ? { violations: extra } : { value: {} };
}

function validateClass(type: Constructor, raw: Readonly<Record<string, unknown>>): ValidationOutcome {
  const instance = classTransformer().plainToInstance(type, raw, { enableImplicitConversion: false }) as object;
  // Synchronous: class-validator's async form only adds promise overhead for the built-in
  // constraints. (Custom async constraints are not supported on input classes; see the README.)
  let errors: ValidationError[];
  try {
    errors = classValidator().validateSync(instance, {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      validationError: { target: false, value: false }
    });
  } catch (error) {
    // A constraint that throws (class-validator 0.15's maxDecimalPlaces on 1e-7, a custom one)
    // refuses the input, with what it said, rather than failing the call.
    return { violations: [{ path: '', message: `the arguments could not be validated: ${(error as Error).message ?? String(error)}` }] };
  }
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

/**
 * Refuses keys that could reach object prototypes, objects whose prototype is not a plain
 * JSON object's (a copy somewhere turned `__proto__` into a prototype), and absurd nesting,
 * before any conversion. Every input gets these checks first (also a schema-only member's).
 */
export function checkStructure(raw: unknown): { violations: Violation[]; nodes: number } {
  const out: Violation[] = [];
  let nodes = 0;
  const walk = (node: unknown, path: string, depth: number): void => {
    nodes++;
    if (node === null || typeof node !== 'object') return;
    if (depth > MAX_NESTING) {
      out.push({ path, message: `nesting deeper than ${MAX_NESTING} levels is not accepted` });
      return;
    }
    const proto = Object.getPrototypeOf(node) as unknown;
    if (proto !== null && proto !== Object.prototype && proto !== Array.prototype) {
      out.push({ path: path ? `${path}.__proto__` : '__proto__', message: 'property name __proto__ is not allowed' });
      return;
    }
    for (const key of Object.keys(node)) {
      const child = path ? `${path}.${key}` : key;
      if (isPrototypeKey(key)) out.push({ path: child, message: `property name ${key} is not allowed` });
      else walk((node as Record<string, unknown>)[key], child, depth + 1);
    }
  };
  walk(raw, '', 0);
  return { violations: out, nodes };
}
