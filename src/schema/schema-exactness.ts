import type { IsNumber } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import type { Constructor, JsonSchema } from '../types/core';
import { classValidator, PLAIN_TO_CLASS, transformerMetadata } from './validation-libraries';

/**
 * Whether, for an input class, "the listed schema accepts" implies "the class's validators
 * accept" and "class-transformer would build nothing but a copy of the properties": then a
 * call whose arguments the (compiled) listed schema accepts needs neither class-transformer
 * nor class-validator, only `new Class()` with the properties assigned. Decided once per
 * class, at startup, from the metadata itself and the schema as listed (with its `@JSONSchema`
 * overrides): every constraint of every property must be one whose meaning the listed schema
 * carries exactly (the keyword with the same value is there), and nothing is transformed.
 * Anything else (nested classes, `each`, groups, `@ValidateIf`, custom constraints, a
 * constraint the schema states differently) keeps the full class path.
 */
export function schemaImpliesClass(type: Constructor, schema: JsonSchema): boolean {
  if (schema.type !== 'object' || schema.additionalProperties !== false || !onlyKeys(schema, ROOT_KEYWORDS)) return false;
  if (transformerMetadata().getStrategy(type) !== 'none') return false;
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  if (Object.keys(properties).length === 0) return false; // class-validator refuses an instance it knows no property of
  if (!freshInstanceIsBlank(type, properties)) return false;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const byProperty = new Map<string, ValidationMetadata[]>();
  const { getMetadataStorage, ValidationTypes } = classValidator();
  for (const meta of getMetadataStorage().getTargetValidationMetadatas(type, '', true, false)) {
    const list = byProperty.get(meta.propertyName) ?? [];
    list.push(meta);
    byProperty.set(meta.propertyName, list);
  }
  if (Object.keys(properties).some((name) => !byProperty.has(name))) return false;
  for (const [name, metas] of byProperty) {
    const property = properties[name];
    if (!property || !isPrimitiveType(property.type) || !onlyKeys(property, PROPERTY_KEYWORDS)) return false;
    if (transformed(type, name)) return false;
    let optional = false;
    for (const meta of metas) {
      if (meta.each || meta.always || (meta.groups && meta.groups.length > 0)) return false;
      if (meta.type === ValidationTypes.CONDITIONAL_VALIDATION && meta.name === 'isOptional') optional = true;
      else if (meta.type === ValidationTypes.WHITELIST) continue;
      else if (meta.type !== ValidationTypes.CUSTOM_VALIDATION || !carried(meta, property) || !isBuiltIn(meta)) return false;
    }
    if (!optional && !required.has(name)) return false;
  }
  return true;
}

/**
 * Builds the input instance the way class-transformer does for such a class: a new instance,
 * the properties copied. Undefined where a value is a number that is not finite (only an
 * in-process caller can pass one, and class-validator's checks of those differ from the schema's).
 */
export function instantiate(type: Constructor, raw: Readonly<Record<string, unknown>>): object | undefined {
  const instance = new (type as new () => Record<string, unknown>)();
  for (const key of Object.keys(raw)) {
    const value = raw[key];
    if (typeof value === 'number' && !Number.isFinite(value)) return undefined;
    instance[key] = value;
  }
  return instance;
}

/**
 * The keywords a schema may use and stay exact: the ones the converter emits, annotations, and
 * keywords that only narrow. Anything else (Ajv's `nullable`, `patternProperties`, `$async`…)
 * could let through what the class refuses.
 */
const ROOT_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', '$schema', 'title', 'description', 'examples']);
const PROPERTY_KEYWORDS = new Set([
  'type',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'enum',
  'title',
  'description',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment'
]);

function onlyKeys(schema: JsonSchema, allowed: ReadonlySet<string>): boolean {
  return Object.keys(schema).every((key) => allowed.has(key));
}

/**
 * A new instance has no own property but the declared ones, none with a value: a field without
 * a decorator is refused by class-validator (whitelist) whatever the input, and a default value
 * would be validated without the listed schema having seen it.
 */
function freshInstanceIsBlank(type: Constructor, properties: Readonly<Record<string, JsonSchema>>): boolean {
  let instance: Record<string, unknown>;
  try {
    instance = new (type as new () => Record<string, unknown>)();
  } catch {
    return false;
  }
  return Object.keys(instance).every((key) => Object.prototype.hasOwnProperty.call(properties, key) && instance[key] === undefined);
}

/** The built-in decorators the fast path knows, to tell them from custom constraints that reuse their names. */
const BUILT_INS: Readonly<Record<string, (c: unknown[]) => PropertyDecorator>> = {
  isString: () => classValidator().IsString(),
  isInt: () => classValidator().IsInt(),
  isBoolean: () => classValidator().IsBoolean(),
  isNumber: (c) => classValidator().IsNumber((c[0] ?? {}) as Parameters<typeof IsNumber>[0]),
  min: (c) => classValidator().Min(c[0] as number),
  max: (c) => classValidator().Max(c[0] as number),
  maxLength: (c) => classValidator().MaxLength(c[0] as number),
  matches: (c) => classValidator().Matches(c[0] as RegExp),
  isIn: (c) => classValidator().IsIn(c[0] as unknown[]),
  isEnum: (c) => classValidator().IsEnum(c[0] as object)
};

/**
 * Whether a constraint is class-validator's own: its message is the one the built-in decorator
 * of that name gives for the same constraints (a custom `ValidateBy({ name: 'maxLength' })`
 * says something else).
 */
function isBuiltIn(meta: ValidationMetadata): boolean {
  let known = builtIn.get(meta);
  if (known === undefined) builtIn.set(meta, (known = compareWithBuiltIn(meta)));
  return known;
}

/** Verdicts of {@link isBuiltIn}, per metadata: each app built on the same classes asks again, and a probe class registers metadata for good. */
const builtIn = new WeakMap<ValidationMetadata, boolean>();

function compareWithBuiltIn(meta: ValidationMetadata): boolean {
  const make = meta.name ? BUILT_INS[meta.name] : undefined;
  if (!make) return false;
  class Probe {}
  make((meta.constraints ?? []) as unknown[])(Probe.prototype, 'probe');
  const [reference] = classValidator().getMetadataStorage().getTargetValidationMetadatas(Probe, '', true, false);
  const expected = reference && messageOf(reference, meta);
  return expected !== undefined && expected === messageOf(meta, meta);
}

function messageOf(of: ValidationMetadata, args: ValidationMetadata): string | undefined {
  const [constraint] = classValidator().getMetadataStorage().getTargetValidatorConstraints(of.constraintCls);
  const instance = constraint?.instance as { defaultMessage?: (a: object) => string } | undefined;
  try {
    return instance?.defaultMessage?.({ property: 'p', constraints: args.constraints ?? [], value: 'v', targetName: 'T', object: {} });
  } catch {
    return undefined;
  }
}

function isPrimitiveType(type: unknown): boolean {
  return type === 'string' || type === 'integer' || type === 'number' || type === 'boolean';
}

function transformed(type: Constructor, property: string): boolean {
  const storage = transformerMetadata();
  return (
    storage.findTypeMetadata(type, property) !== undefined ||
    storage.findTransformMetadatas(type, property, PLAIN_TO_CLASS).length > 0 ||
    storage.findExposeMetadata(type, property) !== undefined ||
    storage.findExcludeMetadata(type, property) !== undefined
  );
}

const numeric = (s: JsonSchema) => s.type === 'number' || s.type === 'integer';
const primitive = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** Whether the property's listed schema carries this constraint exactly (accepting there implies accepting here). */
function carried(meta: ValidationMetadata, s: JsonSchema): boolean {
  const c = (meta.constraints ?? []) as unknown[];
  switch (meta.name) {
    case 'isString':
      return s.type === 'string';
    case 'isInt':
      return s.type === 'integer';
    case 'isBoolean':
      return s.type === 'boolean';
    case 'isNumber': {
      const options = (c[0] ?? {}) as Record<string, unknown>;
      return numeric(s) && options.maxDecimalPlaces === undefined;
    }
    case 'min':
      return numeric(s) && typeof c[0] === 'number' && s.minimum === c[0];
    case 'max':
      return numeric(s) && typeof c[0] === 'number' && s.maximum === c[0];
    case 'maxLength':
      // The schema counts code points, class-validator a little less (variation selectors): within the one, within the other.
      return s.type === 'string' && typeof c[0] === 'number' && s.maxLength === c[0];
    case 'matches': {
      const pattern = c[0];
      return s.type === 'string' && pattern instanceof RegExp && pattern.flags === '' && s.pattern === pattern.source;
    }
    case 'isIn': {
      const allowed = c[0];
      return Array.isArray(allowed) && allowed.every(primitive) && subsetOf(s.enum, allowed);
    }
    case 'isEnum': {
      const entity = c[0];
      return typeof entity === 'object' && entity !== null && subsetOf(s.enum, Object.values(entity));
    }
    default:
      return false;
  }
}

function subsetOf(listed: unknown, allowed: readonly unknown[]): boolean {
  return Array.isArray(listed) && listed.every((v) => primitive(v) && allowed.includes(v));
}
