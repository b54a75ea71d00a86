import type { JsonSchema } from '../types/core';
import { ownValue } from '../wire/own-properties';

/** A restricted elicitation form schema (flat object of primitives). */
export interface FormSchema {
  /** Always an object: a form is a set of named fields. */
  type: 'object';
  /** One primitive schema per field. */
  properties: Record<string, JsonSchema>;
  /** The fields the user must fill in. */
  required?: string[];
}

const FORMATS: Record<string, (v: string) => boolean> = {
  email: (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v),
  uri: (v) => {
    try {
      return Boolean(new URL(v).protocol);
    } catch {
      return false;
    }
  },
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && isCalendarDate(v),
  'date-time': (v) => /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v))
};

/** Whether `YYYY-MM-DD` names a day that exists (Date.parse rolls 2024-02-30 over into March). */
function isCalendarDate(v: string): boolean {
  const [year, month, day] = v.split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Characters as JSON Schema counts them (code points), not UTF-16 units. */
function lengthOf(v: string): number {
  let n = 0;
  for (const _ of v) n++;
  return n;
}

function allowedValues(schema: JsonSchema): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  const options = (schema.oneOf ?? schema.anyOf) as Array<{ const: unknown }> | undefined;
  return Array.isArray(options) ? options.map((o) => o.const) : undefined;
}

/**
 * Validates an answer to a form against the schema that was sent (answers are
 * untrusted). Returns the accepted values (declared fields only) or the problems.
 */
export function validateAnswers(schema: FormSchema, content: unknown): { values: Record<string, unknown>; problems: string[] } {
  const problems: string[] = [];
  const values = Object.create(null) as Record<string, unknown>;
  if (typeof content !== 'object' || content === null || Array.isArray(content)) {
    return { values, problems: ['the answer is not an object of fields'] };
  }
  for (const [name, field] of Object.entries(schema.properties)) {
    const value = ownValue(content, name);
    if (value === undefined || value === null) {
      if (schema.required?.includes(name)) problems.push(`${name} is required`);
      continue;
    }
    const problem = checkField(name, field, value);
    if (problem) problems.push(problem);
    else values[name] = value;
  }
  return { values, problems };
}

function checkField(name: string, field: JsonSchema, value: unknown): string | undefined {
  switch (field.type) {
    case 'string': {
      if (typeof value !== 'string') return `${name} must be a string`;
      const allowed = allowedValues(field);
      if (allowed && !allowed.includes(value)) return `${name} must be one of ${allowed.join(', ')}`;
      if (typeof field.minLength === 'number' && lengthOf(value) < field.minLength)
        return `${name} must be at least ${field.minLength} characters`;
      if (typeof field.maxLength === 'number' && lengthOf(value) > field.maxLength)
        return `${name} must be at most ${field.maxLength} characters`;
      const format = typeof field.format === 'string' ? FORMATS[field.format] : undefined;
      if (format && !format(value)) return `${name} must be a valid ${String(field.format)}`;
      return undefined;
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return `${name} must be a number`;
      if (field.type === 'integer' && !Number.isInteger(value)) return `${name} must be a whole number`;
      if (typeof field.minimum === 'number' && value < field.minimum) return `${name} must be at least ${field.minimum}`;
      if (typeof field.maximum === 'number' && value > field.maximum) return `${name} must be at most ${field.maximum}`;
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${name} must be true or false`;
    case 'array': {
      if (!Array.isArray(value)) return `${name} must be a list`;
      const allowed = allowedValues((field.items ?? {}) as JsonSchema);
      const bad = value.filter((v) => typeof v !== 'string' || (allowed && !allowed.includes(v)));
      if (bad.length > 0) return `${name} has values not offered: ${bad.map(String).join(', ')}`;
      if (new Set(value).size !== value.length) return `${name} lists a value twice`;
      if (typeof field.minItems === 'number' && value.length < field.minItems) return `${name} needs at least ${field.minItems} choices`;
      if (typeof field.maxItems === 'number' && value.length > field.maxItems) return `${name} allows at most ${field.maxItems} choices`;
      return undefined;
    }
    default:
      return `${name} has an unsupported schema`;
  }
}
