import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';
import type { JsonSchema } from '../types/core';
import type { SchemaError } from './schema-error';

/**
 * The schema engine for runtimes that forbid generated code (Cloudflare Workers): the SDK's
 * `@cfworker/json-schema` validator, which interprets the schema on every check. It reports its
 * errors as one line of text (`#/path: message; …`); they are read back here into Ajv's shape, so
 * a refusal reads the same on Node and in a Worker. Loaded only where it is used (schema-check.ts).
 */
const validator = (): CfWorkerJsonSchemaValidator =>
  (shared ??= new CfWorkerJsonSchemaValidator({ shortcircuit: false, draft: '2019-09' }));
let shared: CfWorkerJsonSchemaValidator | undefined;

/** Prepares `schema` (resolving its `$ref`s once); the returned function gives the errors of a value, empty when it conforms. */
export function interpretSchema(schema: JsonSchema): (raw: unknown) => SchemaError[] {
  const validate = validator().getValidator(schema as Parameters<CfWorkerJsonSchemaValidator['getValidator']>[0]);
  return (raw) => {
    const result = validate(raw);
    return result.valid ? [] : readErrors(result.errorMessage ?? '', schema, raw);
  };
}

/** One error as @cfworker/json-schema words it: where, and what. */
interface Reported {
  readonly segments: string[];
  readonly text: string;
}

/** The reported errors, in Ajv's shape; the errors that only say "a part below had errors" are left out (the part's own error says it). */
export function readErrors(message: string, schema: JsonSchema, raw: unknown): SchemaError[] {
  const reported = message
    .split(/; (?=#)/)
    .map((entry): Reported | undefined => {
      const match = /^#([^:]*): ([\s\S]*)$/.exec(entry);
      return match ? { segments: pointerSegments(match[1]), text: match[2] } : undefined;
    })
    .filter((entry): entry is Reported => entry !== undefined);
  // A property that breaks its own schema is also reported against additionalProperties by this
  // engine (it is not counted as evaluated): only properties the schema does not list are extra.
  const failedListed = new Set<string>();
  for (const { segments, text } of reported) {
    const listed = /^Property "(.*)" does not match schema\.$/.exec(text);
    if (listed) failedListed.add(pathKey([...segments, listed[1]]));
  }
  const errors: SchemaError[] = [];
  for (const { segments, text } of reported) {
    const extra = /^Property "(.*)" does not match additional properties schema\.$/.exec(text);
    if (extra && failedListed.has(pathKey([...segments, extra[1]]))) continue;
    const error = toSchemaError(segments, text, schema, raw);
    if (error) errors.push(error);
  }
  return errors;
}

function toSchemaError(segments: string[], text: string, schema: JsonSchema, raw: unknown): SchemaError | undefined {
  const instancePath = segments.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  const data = valueAt(raw, segments);
  const at = (keyword: string, params: Record<string, unknown> = {}, message?: string): SchemaError => ({
    instancePath,
    keyword,
    params,
    data,
    ...(message !== undefined ? { message } : {})
  });
  let match: RegExpExecArray | null;
  if (WRAPPERS.some((wrapper) => wrapper.test(text))) return undefined;
  if ((match = /^Instance does not have required property "(.*)"\.$/.exec(text))) return at('required', { missingProperty: match[1] });
  if ((match = /^Property "(.*)" does not match additional properties schema\.$/.exec(text))) {
    return at('additionalProperties', { additionalProperty: match[1] });
  }
  if ((match = /^Instance type ".*" is invalid\. Expected "(.*)"\.$/.exec(text)))
    return at('type', { type: match[1].split('", "').join(',') });
  if ((match = /^Instance does not match any of (.*)\.$/.exec(text))) return at('enum', { allowedValues: parseJson(match[1]) });
  if ((match = /^String is too short \(\d+ < (\d+)\)\.$/.exec(text))) return at('minLength', { limit: Number(match[1]) });
  if ((match = /^String is too long \(\d+ > (\d+)\)\.$/.exec(text))) return at('maxLength', { limit: Number(match[1]) });
  if ((match = /^Array has too few items \(\d+ < (\d+)\)\.$/.exec(text))) return at('minItems', { limit: Number(match[1]) });
  if ((match = /^Array has too many items \(\d+ > (\d+)\)\.$/.exec(text))) return at('maxItems', { limit: Number(match[1]) });
  if ((match = /^\S+ is less than (?:or equal to )?\s*(\S+)\.$/.exec(text))) {
    // The engine words minimum and exclusiveMinimum alike: the schema says which it was.
    const exclusive = typeof subschemaAt(schema, segments)?.exclusiveMinimum === 'number' || data === Number(match[1]);
    return at(exclusive ? 'exclusiveMinimum' : 'minimum', { limit: Number(match[1]) });
  }
  if ((match = /^\S+ is greater than or equal to\s+(\S+)\.$/.exec(text))) return at('exclusiveMaximum', { limit: Number(match[1]) });
  if ((match = /^\S+ is greater than\s+(\S+)\.$/.exec(text))) return at('maximum', { limit: Number(match[1]) });
  if (text === 'String does not match pattern.') {
    const pattern = subschemaAt(schema, segments)?.pattern;
    return typeof pattern === 'string' ? at('pattern', { pattern }) : at('pattern-unknown', {}, 'must match its pattern');
  }
  if ((match = /^String does not match format "(.*)"\.$/.exec(text))) return at('format', { format: match[1] });
  return at('schema', {}, `is not valid (${text.replace(/\.$/, '')})`);
}

/** The errors that only say a part below had errors (its own error follows), and the `false` schema behind additionalProperties. */
const WRAPPERS: readonly RegExp[] = [
  /^Property ".*" does not match schema\.$/,
  /^Items did not match schema\.$/,
  /^A subschema had errors\.$/,
  /^False boolean schema\.$/,
  /^Property ".*" matches pattern ".*" but does not match associated schema\.$/
];

function pointerSegments(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // Not percent-encoded: taken as it is.
      }
      return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

const pathKey = (segments: readonly string[]): string => JSON.stringify(segments);

function parseJson(text: string): unknown[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    return [text];
  }
}

function valueAt(raw: unknown, segments: readonly string[]): unknown {
  let value = raw;
  for (const segment of segments) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/** The subschema that applies at `segments`, following `properties`, `items` and local `$ref`s; undefined where it cannot tell. */
function subschemaAt(root: JsonSchema, segments: readonly string[]): Record<string, unknown> | undefined {
  const resolve = (node: unknown, depth = 0): Record<string, unknown> | undefined => {
    if (node === null || typeof node !== 'object' || depth > 16) return undefined;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return node as Record<string, unknown>;
    return resolve(valueAt(root, pointerSegments(ref.slice(1))), depth + 1);
  };
  let node = resolve(root);
  for (const segment of segments) {
    if (!node) return undefined;
    const properties = node.properties as Record<string, unknown> | undefined;
    if (properties && Object.hasOwn(properties, segment)) node = resolve(properties[segment]);
    else if (/^\d+$/.test(segment) && node.items && !Array.isArray(node.items)) node = resolve(node.items);
    else return undefined;
  }
  return node;
}
