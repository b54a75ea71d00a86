import { getMetadataStorage } from 'class-validator';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import type { Constructor } from '../metadata/types';

/** A JSON Schema document (as plain JSON). */
export type JsonSchema = { [key: string]: unknown };

const REF_PREFIX = '#/definitions/';
const MAX_DEPTH = 16;

/**
 * JSON Schemas of classes, derived from their class-validator (and class-transformer
 * `@Type`) metadata by class-validator-jsonschema. Nested classes are inlined, and every
 * object gets `additionalProperties: false`, because undeclared properties are refused.
 * Built once per app at startup.
 */
export class SchemaCatalog {
  private readonly byName: Record<string, JsonSchema>;
  private readonly cache = new Map<Constructor, JsonSchema>();

  constructor() {
    this.byName = validationMetadatasToSchemas({
      classValidatorMetadataStorage: getMetadataStorage(),
      classTransformerMetadataStorage: defaultMetadataStorage,
      refPointerPrefix: REF_PREFIX
    }) as Record<string, JsonSchema>;
  }

  /** The inlined schema of a class: an object with the properties it declares. */
  schemaOf(type: Constructor): JsonSchema {
    let schema = this.cache.get(type);
    if (!schema) {
      schema = this.inline(this.byName[type.name] ?? { type: 'object', properties: {} }, 0);
      this.cache.set(type, schema);
    }
    return schema;
  }

  private inline(node: unknown, depth: number): JsonSchema {
    if (depth > MAX_DEPTH) return { type: 'object' };
    const source = node as JsonSchema;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(source)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(REF_PREFIX)) {
        Object.assign(out, this.inline(this.byName[value.slice(REF_PREFIX.length)] ?? { type: 'object' }, depth + 1));
      } else if (key === 'properties' && value && typeof value === 'object') {
        out.properties = Object.fromEntries(
          Object.entries(value as JsonSchema).map(([name, prop]) => [name, this.inline(prop, depth + 1)])
        );
      } else if ((key === 'items' || key === 'additionalProperties') && value && typeof value === 'object') {
        out[key] = this.inline(value, depth + 1);
      } else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) {
        out[key] = value.map((item) => this.inline(item, depth + 1));
      } else {
        out[key] = value;
      }
    }
    if (out.type === 'object' && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
    return out;
  }
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
