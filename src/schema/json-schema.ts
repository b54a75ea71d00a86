import { getMetadataSchema } from 'class-validator-jsonschema/build/decorators';
import type { Constructor, JsonSchema } from '../types/core';
import { createInputValidator, type InputValidator } from './input-validator';
import { compileSchemaCheck, derivedSchemaCheck } from './schema-check';
import { schemaImpliesClass } from './schema-exactness';
import { classValidator, schemaConverter, transformerMetadata } from './validation-libraries';

const REF_PREFIX = '#/definitions/';
const MAX_DEPTH = 16;

/**
 * JSON Schemas of classes, derived from their class-validator metadata by
 * class-validator-jsonschema. Nested classes (class-transformer's `@Type(() => Child)`) are
 * inlined, resolved by constructor (two classes with the same name in different files do not
 * mix), and every object gets `additionalProperties: false`, because undeclared properties are
 * refused. Built once per class, at startup.
 */
export class SchemaCatalog {
  private readonly cache = new Map<Constructor, JsonSchema>();
  private readonly validators = new Map<Constructor | undefined, InputValidator>();
  /** Classes whose schema has `@JSONSchema` parts (their own or a nested class's). */
  private readonly handWritten = new Set<Constructor>();

  /**
   * The validator of an input class (`undefined`: no input, only `{}`), which enforces both the
   * class's validators and the schema listed for it. Compiled once per class; `owner` names
   * the member in a startup error.
   */
  validatorOf(type: Constructor | undefined, owner: string): InputValidator {
    const cached = this.validators.get(type);
    if (cached) return cached;
    const schema = type ? this.schemaOf(type) : EMPTY_INPUT_SCHEMA;
    const check =
      type !== undefined && this.handWritten.has(type) ? compileSchemaCheck(schema, owner, true) : derivedSchemaCheck(schema, owner);
    const validator = createInputValidator(type, check, type !== undefined && schemaImpliesClass(type, schema));
    this.validators.set(type, validator);
    return validator;
  }

  /** The schema of a value of `output` (a class, or `[Class]` for a list), for {@link pickBySchema}. */
  allowlistOf(output: Constructor | [Constructor] | undefined): JsonSchema | undefined {
    if (!output) return undefined;
    return Array.isArray(output) ? { type: 'array', items: this.schemaOf(output[0]) } : this.schemaOf(output);
  }

  /** The inlined schema of a class: an object with the properties it declares. */
  schemaOf(type: Constructor, depth = 0): JsonSchema {
    const cached = this.cache.get(type);
    if (cached) return cached;
    if (depth > MAX_DEPTH) return { type: 'object' };
    const raw = schemaConverter().targetConstructorToSchema(type, {
      classValidatorMetadataStorage: classValidator().getMetadataStorage(),
      classTransformerMetadataStorage: transformerMetadata(),
      refPointerPrefix: REF_PREFIX
    }) as JsonSchema;
    const properties = (raw.properties ?? {}) as Record<string, JsonSchema>;
    const schema: JsonSchema = {
      ...raw,
      type: 'object',
      properties: Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [
          name,
          integerWhereInt(type, name, this.inlineNested(type, name, property, depth))
        ])
      )
    };
    if (schema.additionalProperties === undefined) schema.additionalProperties = false;
    if (hasOverrides(type, Object.keys(properties))) this.handWritten.add(type);
    this.cache.set(type, schema);
    return schema;
  }

  /** Replaces a `$ref` (in the property or its `items`) by the schema of the class `@Type` names. */
  private inlineNested(owner: Constructor, property: string, node: JsonSchema, depth: number): JsonSchema {
    const nested = () => transformerMetadata().findTypeMetadata(owner, property)?.typeFunction() as Constructor | undefined;
    const resolve = (schema: JsonSchema): JsonSchema => {
      if (typeof schema.$ref !== 'string' || !schema.$ref.startsWith(REF_PREFIX)) return schema;
      const type = nested();
      const { $ref: _ref, ...rest } = schema;
      if (type) {
        const inlined = this.schemaOf(type, depth + 1);
        if (this.handWritten.has(type)) this.handWritten.add(owner);
        return { ...inlined, ...rest };
      }
      return { type: 'object', ...rest };
    };
    const out = resolve(node);
    if (out.items && typeof out.items === 'object' && !Array.isArray(out.items)) return { ...out, items: resolve(out.items as JsonSchema) };
    return out;
  }
}

/** Keywords that annotate and cannot make a schema invalid when their value is a string. */
const ANNOTATIONS = new Set(['description', 'title', '$comment']);

/**
 * Whether a class carries `@JSONSchema` overrides that could make its schema invalid, on itself or
 * on one of its properties. One that only sets a `description` or `title` string cannot, so it
 * spares the class the meta-schema check (and its compile at startup).
 */
function hasOverrides(type: Constructor, properties: readonly string[]): boolean {
  const has = (key: string) =>
    Object.entries(getMetadataSchema(type.prototype as object, key)).some(
      ([keyword, value]) => !ANNOTATIONS.has(keyword) || typeof value !== 'string'
    );
  return has(type.name) || properties.some(has);
}

/**
 * `@IsInt()` lists `type: integer`, whatever other constraint the property has: the converter
 * merges each constraint's schema in turn, so `@IsInt() @Min(0)` would list `type: number`
 * (and an agent would read that 1.5 is accepted).
 */
function integerWhereInt(type: Constructor, name: string, property: JsonSchema): JsonSchema {
  if (property.type !== 'number') return property;
  const isInt = classValidator()
    .getMetadataStorage()
    .getTargetValidationMetadatas(type, '', true, false)
    .some((m) => m.propertyName === name && m.name === 'isInt' && !m.each);
  return isInt ? { ...property, type: 'integer' } : property;
}

/** The schema of a tool with no `@Input()`: an empty object, nothing else allowed. */
export const EMPTY_INPUT_SCHEMA: JsonSchema = Object.freeze({ type: 'object', properties: {}, additionalProperties: false });

/**
 * Copies `value`, keeping only what `schema` declares: the allowlist that keeps an internal
 * field of a returned entity from leaving the server. Recurses into nested objects and arrays.
 */
export function pickBySchema(value: unknown, schema: JsonSchema | undefined): unknown {
  if (!schema || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = schema.items as JsonSchema | undefined;
    return items ? value.map((item) => pickBySchema(item, items)) : value;
  }
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (!properties) return value;
  const source = (
    typeof (value as { toJSON?: unknown }).toJSON === 'function' ? (value as { toJSON(): unknown }).toJSON() : value
  ) as Record<string, unknown>;
  if (source === null || typeof source !== 'object') return source;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(properties)) {
    if (Object.prototype.hasOwnProperty.call(source, key) || key in source) {
      const v = source[key];
      if (v !== undefined) out[key] = pickBySchema(v, properties[key]);
    }
  }
  return out;
}
