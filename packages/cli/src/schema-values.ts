/**
 * Values typed at a terminal (`--arg id=3`, `--answer confirm=yes`, a field of a question)
 * read against the JSON Schema of the property they are for: numbers, integers, booleans,
 * enums, arrays and objects become JSON values, and what does not fit is refused with a
 * message naming the property, before anything is sent.
 */

/** The part of a JSON Schema property the terminal client reads. */
export interface PropertySchema {
  type?: string | string[];
  title?: string;
  description?: string;
  enum?: unknown[];
  oneOf?: Array<{ const?: unknown; title?: string }>;
  anyOf?: Array<{ const?: unknown; title?: string }>;
  const?: unknown;
  items?: PropertySchema;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
  properties?: Record<string, PropertySchema>;
  required?: string[];
  additionalProperties?: boolean | PropertySchema;
}

/** A value that does not fit its property: the message names the property and says what fits. */
export class ValueError extends Error {
  constructor(
    readonly property: string,
    problem: string
  ) {
    super(`${property}: ${problem}`);
    this.name = 'ValueError';
  }
}

const TRUE_WORDS = new Set(['true', 'yes', 'y', '1', 'on']);
const FALSE_WORDS = new Set(['false', 'no', 'n', '0', 'off']);

/** The types a schema allows, first the declared ones (`type` as string or list), else what its enum or const suggests. */
export function typesOf(schema: PropertySchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === 'string') return [schema.type];
  return [];
}

/** The allowed constants of an enum property (`enum`, or titled `oneOf` / `anyOf` of `const`), or undefined. */
export function choicesOf(schema: PropertySchema): Array<{ value: unknown; title: string }> | undefined {
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => ({ value, title: String(value) }));
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives?.length && alternatives.every((entry) => entry && 'const' in entry))
    return alternatives.map((entry) => ({ value: entry.const, title: entry.title ?? String(entry.const) }));
  return undefined;
}

/**
 * Reads the text typed for one property into the JSON value the schema wants, and checks it
 * (see {@link checkValue}). Throws {@link ValueError} naming `property`.
 */
export function parseValue(property: string, schema: PropertySchema, text: string): unknown {
  const value = convert(property, schema, text);
  checkValue(property, schema, value);
  return value;
}

function convert(property: string, schema: PropertySchema, text: string): unknown {
  const types = typesOf(schema);
  const choices = choicesOf(schema);
  if (choices) {
    const match = choices.find((choice) => String(choice.value) === text || choice.title === text);
    if (match) return match.value;
    throw new ValueError(property, `"${text}" is not one of ${choices.map((c) => String(c.value)).join(', ')}`);
  }
  if (types.includes('array')) return convertArray(property, schema, text);
  if (types.includes('object'))
    return parseJson(property, text, 'a JSON object', (v) => typeof v === 'object' && v !== null && !Array.isArray(v));
  if (types.includes('integer') || types.includes('number')) {
    const trimmed = text.trim();
    const number = trimmed === '' ? NaN : Number(trimmed);
    if (Number.isFinite(number)) return number;
    if (types.includes('string')) return text;
    throw new ValueError(property, `"${text}" is not a number`);
  }
  if (types.includes('boolean')) {
    const word = text.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
    if (types.includes('string')) return text;
    throw new ValueError(property, `"${text}" is not a boolean (use true/false or yes/no)`);
  }
  if (types.includes('null') && text === 'null' && !types.includes('string')) return null;
  if (types.length === 0) {
    // No declared type: JSON if it reads as JSON (a number, true, an object), else the text itself.
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

function convertArray(property: string, schema: PropertySchema, text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) return parseJson(property, trimmed, 'a JSON array', Array.isArray) as unknown[];
  if (trimmed === '') return [];
  const items = schema.items ?? {};
  return trimmed.split(',').map((part, index) => convert(`${property}[${index}]`, items, part.trim()));
}

function parseJson(property: string, text: string, what: string, fits: (value: unknown) => boolean): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ValueError(property, `"${text}" is not ${what}`);
  }
  if (!fits(value)) throw new ValueError(property, `"${text}" is not ${what}`);
  return value;
}

const FORMATS: Record<string, { test: (text: string) => boolean; what: string }> = {
  email: { test: (text) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text), what: 'an email address' },
  uri: { test: (text) => URL.canParse(text) && /^[a-z][a-z0-9+.-]*:/i.test(text), what: 'a URI (scheme:…)' },
  date: { test: (text) => /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text)), what: 'a date (YYYY-MM-DD)' },
  'date-time': {
    test: (text) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text) && !Number.isNaN(Date.parse(text)),
    what: 'a date-time (YYYY-MM-DDTHH:MM:SSZ)'
  }
};

/**
 * Checks a JSON value against the property's schema: its type, enum, bounds (minimum,
 * maximum, exclusive ones, lengths, item counts), pattern and format (email, uri, date,
 * date-time). Throws {@link ValueError} naming `property` and what fits.
 */
export function checkValue(property: string, schema: PropertySchema, value: unknown): void {
  const choices = choicesOf(schema);
  if (choices) {
    if (!choices.some((choice) => choice.value === value))
      throw new ValueError(property, `${JSON.stringify(value)} is not one of ${choices.map((c) => String(c.value)).join(', ')}`);
    return;
  }
  const types = typesOf(schema);
  if (types.length > 0 && !types.some((type) => hasType(value, type)))
    throw new ValueError(property, `${JSON.stringify(value)} is not ${types.map(article).join(' or ')}`);
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum)
      throw new ValueError(property, `${value} is less than the minimum ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum)
      throw new ValueError(property, `${value} is more than the maximum ${schema.maximum}`);
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum)
      throw new ValueError(property, `${value} must be more than ${schema.exclusiveMinimum}`);
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum)
      throw new ValueError(property, `${value} must be less than ${schema.exclusiveMaximum}`);
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength)
      throw new ValueError(property, `needs at least ${schema.minLength} character${schema.minLength === 1 ? '' : 's'}`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength)
      throw new ValueError(property, `takes at most ${schema.maxLength} character${schema.maxLength === 1 ? '' : 's'}`);
    const pattern = schema.pattern === undefined ? undefined : safeRegExp(schema.pattern);
    if (pattern && !pattern.test(value)) throw new ValueError(property, `"${value}" does not match the pattern ${schema.pattern}`);
    const format = schema.format ? FORMATS[schema.format] : undefined;
    if (format && !format.test(value)) throw new ValueError(property, `"${value}" is not ${format.what}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      throw new ValueError(property, `needs at least ${schema.minItems} item(s)`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      throw new ValueError(property, `takes at most ${schema.maxItems} item(s)`);
    if (schema.items) value.forEach((item, index) => checkValue(`${property}[${index}]`, schema.items!, item));
  }
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'null':
      return value === null;
    default:
      return true;
  }
}

function article(type: string): string {
  return type === 'integer' || type === 'array' || type === 'object' ? `an ${type}` : type === 'null' ? 'null' : `a ${type}`;
}

/** A pattern from the wire compiled with `u`; an invalid one checks nothing (the server checks again). */
function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}
