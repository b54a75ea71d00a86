import type * as AjvModule from '@modelcontextprotocol/server/validators/ajv';
import { ConfigurationError, type Violation } from '../errors';
import type { JsonSchema } from '../types/core';
import { codeGenerationAllowed } from './code-generation';
import type * as Interpreted from './interpreted-schema-check';
import type { SchemaError } from './schema-error';

/**
 * Checks raw arguments against the schema the server LISTS (`inputSchema`), so that what an
 * agent reads is what is enforced: whatever the class validators let through (a `null` for an
 * `@IsOptional()` property, say) but the listed schema forbids is refused here. Uses the Ajv
 * the SDK bundles; one instance for the process, one compiled function per schema (at startup, or on
 * its first check for a schema derived without hand-written parts: {@link derivedSchemaCheck}).
 *
 * Where the runtime forbids generating code from strings (Cloudflare Workers: Ajv's compiled
 * validators are `new Function`s), the schema is interpreted instead, by the SDK's
 * `@cfworker/json-schema` validator (interpreted-schema-check.ts); chosen on the first compile by
 * probing the runtime once, so Node keeps Ajv's compiled fast path.
 */
// verbose: an error carries the offending value, so a null can be named as such. The schemas the
// framework derives are valid by construction, so this instance does not check them against the
// meta-schema (compiling the meta-schema's own validator costs ~30 ms of every startup).
const OPTIONS = { allErrors: true, verbose: true, strict: false, unicodeRegExp: false, logger: false } as const;
type AjvInstance = InstanceType<typeof AjvModule.Ajv>;
type CompiledCheck = ReturnType<AjvInstance['compile']>;
/** The SDK's Ajv bundle, loaded on the first compile too (a start that compiles nothing never loads it). */
let ajvLoaded: typeof AjvModule | undefined;
function ajvModule(): typeof AjvModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
  return (ajvLoaded ??= require('@modelcontextprotocol/server/validators/ajv') as typeof AjvModule);
}
// Made on the first compile: a Worker that never compiles a schema with Ajv never builds it.
let shared: AjvInstance | undefined;
function ajv(): AjvInstance {
  if (shared) return shared;
  const { Ajv, addFormats } = ajvModule();
  shared = new Ajv({ ...OPTIONS, validateSchema: false });
  addFormats(shared);
  return shared;
}

/** The interpreted engine, loaded on first need (only where code generation is forbidden). */
let interpreted: typeof Interpreted | undefined;
function interpretedEngine(): typeof Interpreted {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use: Node never needs it
  return (interpreted ??= require('./interpreted-schema-check') as typeof Interpreted);
}

/** Which engine checks schemas: `'auto'` probes the runtime; the others force one (tests). */
let engine: 'auto' | 'compiled' | 'interpreted' = 'auto';

/**
 * Forces the schema engine (for tests: the interpreted engine is what a Worker uses); `'auto'`
 * (the default) compiles with Ajv where the runtime allows generated code and interprets elsewhere.
 * @internal
 */
export function setSchemaEngine(choice: 'auto' | 'compiled' | 'interpreted'): void {
  engine = choice;
}

function interpreting(): boolean {
  return engine === 'interpreted' || (engine === 'auto' && !codeGenerationAllowed());
}

/** Checks schemas that carry hand-written `@JSONSchema` parts against the meta-schema; made on first need. */
let metaChecker: AjvInstance | undefined;
function checkAgainstMetaSchema(schema: JsonSchema): string | undefined {
  metaChecker ??= new (ajvModule().Ajv)({ ...OPTIONS });
  return metaChecker.validateSchema(schema) ? undefined : metaChecker.errorsText(metaChecker.errors);
}

/**
 * A violation of the listed schema, with the schema keyword it breaks: `required`, `type` and
 * `additionalProperties` say what is wrong with the shape of the input, the others (bounds,
 * lengths, patterns, enums, formats) with a value.
 */
export interface SchemaViolation extends Violation {
  readonly keyword: string;
}

/** A compiled check: the violations of `raw`, by property path (empty when it conforms). */
export type SchemaCheck = (raw: unknown) => SchemaViolation[];

/**
 * Compiles `schema` (once, at startup); `owner` names it in the error when it does not compile.
 * `handWritten`: parts of it come from `@JSONSchema` overrides, so it is checked against the
 * meta-schema first (a typo there is a startup error, not a silently ignored keyword). `what`
 * says which schema it is in that error (a tool's output is checked with the same machinery).
 */
export function compileSchemaCheck(
  schema: JsonSchema,
  owner: string,
  handWritten = false,
  what: 'input' | 'output' = 'input'
): SchemaCheck {
  // The dialect is not looked up: this Ajv knows draft-07's meta-schema only, and the keywords
  // class-validator-jsonschema emits mean the same in 2020-12 (which the listing may declare).
  const { $schema: _dialect, ...body } = schema;
  try {
    if ('$async' in body) throw new Error('asynchronous schemas ($async) are not supported');
    // The interpreted engine skips the meta-schema check (Ajv compiles the meta-schema too): the
    // same app checks its hand-written parts wherever it runs on Node (its tests, `mcpfusion dev`).
    if (interpreting()) return checkWithErrors(interpretedEngine().interpretSchema(body));
    const invalid = handWritten ? checkAgainstMetaSchema(body) : undefined;
    if (invalid) throw new Error(invalid);
    return checkWith(ajv().compile(body));
  } catch (error) {
    throw new ConfigurationError(
      `The ${what} schema of ${owner} is not a valid JSON Schema (${(error as Error).message}): check its @JSONSchema overrides.`
    );
  }
}

/**
 * {@link compileSchemaCheck} for a schema the framework derived from a class without hand-written
 * parts, which is valid by construction: compiled on its first check rather than at startup. Ajv's
 * code generation costs a few ms a schema (~100 ms of a start with twenty tools), and most tools
 * of a process are not called in its first second.
 */
export function derivedSchemaCheck(schema: JsonSchema, owner: string, what: 'input' | 'output' = 'input'): SchemaCheck {
  let check: SchemaCheck | undefined;
  return (raw) => (check ??= compileSchemaCheck(schema, owner, false, what))(raw);
}

function checkWith(validate: CompiledCheck): SchemaCheck {
  return (raw) => (validate(raw) ? [] : toViolations((validate.errors ?? []) as SchemaError[]));
}

/** A check from an engine that returns Ajv-shaped errors (empty when the value conforms). */
function checkWithErrors(errorsOf: (raw: unknown) => SchemaError[]): SchemaCheck {
  return (raw) => {
    const errors = errorsOf(raw);
    return errors.length === 0 ? [] : toViolations(errors);
  };
}

function toViolations(errors: readonly SchemaError[]): SchemaViolation[] {
  // A null says all there is to say about its property: its type, enum, bounds need no line of their own.
  const nulls = new Set(errors.filter((e) => e.data === null).map((e) => e.instancePath));
  return errors
    .filter((e) => !nulls.has(e.instancePath) || (e.keyword === 'type' && e.data === null))
    .map((e) => ({ ...toViolation(e), keyword: e.keyword }));
}

function toViolation(error: SchemaError): Violation {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const join = (extra?: string) => [...segments, ...(extra !== undefined ? [extra] : [])].join('.');
  const name = segments[segments.length - 1] ?? 'arguments';
  const limit = error.params.limit as number;
  switch (error.keyword) {
    case 'required': {
      const missing = String(error.params.missingProperty);
      return { path: join(missing), message: `${missing} is required` };
    }
    case 'additionalProperties': {
      const extra = String(error.params.additionalProperty);
      return { path: join(extra), message: `property ${extra} should not exist` };
    }
    case 'type': {
      if (error.data === null) return { path: join(), message: `${name} must not be null (leave it out instead)` };
      // A fraction where an integer is due: "a whole number" is what a person calls it.
      if (typeof error.data === 'number' && String(error.params.type).split(',').includes('integer')) {
        return { path: join(), message: `${name} must be a whole number, not ${String(error.data)}` };
      }
      const expected = String(error.params.type)
        .split(',')
        .map((type) => TYPE_NAMES[type] ?? type)
        .join(' or ');
      return { path: join(), message: `${name} must be ${expected}, not ${kindOf(error.data)}` };
    }
    case 'enum':
      return { path: join(), message: `${name} must be one of ${(error.params.allowedValues as unknown[]).map(String).join(', ')}` };
    case 'minimum':
      return { path: join(), message: `${name} must be at least ${limit}` };
    case 'maximum':
      return { path: join(), message: `${name} must be at most ${limit}` };
    case 'exclusiveMinimum':
      return { path: join(), message: `${name} must be greater than ${limit}` };
    case 'exclusiveMaximum':
      return { path: join(), message: `${name} must be less than ${limit}` };
    case 'minLength':
      return { path: join(), message: `${name} must be at least ${limit} character${limit === 1 ? '' : 's'} long` };
    case 'maxLength':
      return { path: join(), message: `${name} must be at most ${limit} character${limit === 1 ? '' : 's'} long` };
    case 'minItems':
      return { path: join(), message: `${name} must have at least ${limit} item${limit === 1 ? '' : 's'}` };
    case 'maxItems':
      return { path: join(), message: `${name} must have at most ${limit} item${limit === 1 ? '' : 's'}` };
    case 'pattern':
      return { path: join(), message: `${name} must match the pattern ${String(error.params.pattern)}` };
    case 'format':
      return { path: join(), message: `${name} must be a valid ${String(error.params.format)}` };
    default:
      return { path: join(), message: `${name} ${error.message ?? `violates ${error.keyword}`}` };
  }
}

/** JSON Schema types, as a message names them. */
const TYPE_NAMES: Readonly<Record<string, string>> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null'
};

/** What a JSON value is, in the words of {@link TYPE_NAMES}. */
function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  return TYPE_NAMES[typeof value] ?? typeof value;
}
