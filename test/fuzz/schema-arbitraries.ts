import fc from 'fast-check';

/**
 * fast-check arbitraries derived from a listed JSON Schema (a tool's `inputSchema` as
 * `tools/list` shows it): argument sets that conform, and argument sets that break exactly
 * one constraint, labelled with which. {@link problems} is the oracle both are checked
 * against, so a disagreement with a server is the server's, not the generator's.
 *
 * Supported: `type` (one or several), `const`, `enum`, object (`properties`, `required`,
 * `additionalProperties`), string (`minLength`, `maxLength`, `pattern`, `format` email | uri |
 * date | date-time), integer / number (`minimum`, `maximum`, exclusive bounds in both the
 * numeric and the draft-4 boolean spelling), boolean, null, array (`items`, `minItems`,
 * `maxItems`), `allOf`, `anyOf`, `oneOf`, `if` / `then` / `else`, and local `$ref`s.
 */

/** A JSON Schema node (plain JSON). */
export type Schema = { readonly [key: string]: unknown };

/** The constraints {@link brokenArgs} breaks, one at a time. */
export const VIOLATIONS = [
  ...['type', 'minimum', 'maximum', 'minLength', 'maxLength', 'enum', 'format', 'pattern', 'minItems', 'maxItems'],
  ...['required', 'additionalProperty', 'null', 'deepNesting', 'hugeValue', 'prototypeKey']
] as const;

/** The one constraint a {@link BrokenArgs} violates. */
export type Violation = (typeof VIOLATIONS)[number];

/**
 * Violations the server refuses by policy rather than by the schema: a prototype key in an
 * object open to other properties, or nesting deeper than the server accepts, may conform to
 * the schema itself. The others are checked to break it.
 */
export const POLICY_VIOLATIONS: ReadonlySet<Violation> = new Set<Violation>(['deepNesting', 'prototypeKey']);

/** An argument set that breaks one constraint. */
export interface BrokenArgs {
  /** Which constraint. */
  readonly violation: Violation;
  /** Where: a dotted property path (`address.street`, `lines.0.qty`); `(arguments)` for the top level. */
  readonly path: string;
  /** The arguments as sent. */
  readonly args: Record<string, unknown>;
}

/** Options of {@link brokenArgs}. */
export interface BrokenOptions {
  /**
   * Every value stays a string (prompt arguments, URI template variables): violations that
   * need another type or a nested value are left out, and extra properties get string values.
   */
  readonly strings?: boolean;
  /** Violations to leave out (an extra variable has no place in a URI, say). */
  readonly exclude?: readonly Violation[];
  /**
   * A stricter schema to draw the starting values from (each broken set is a conforming one
   * with one change): keeps the rest of a broken set cheap, should the server accept it.
   */
  readonly base?: Schema;
}

/** Property names that reach object prototypes. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

const DEEP_LEVELS = 40;
const HUGE = 1 << 20; // 1 MiB
const TYPES = ['string', 'integer', 'number', 'boolean', 'null', 'array', 'object'];

type Json = Record<string, unknown>;
/** A change to an object. */
type Edit = (obj: Json) => unknown;
type Path = readonly (string | number)[];

const hasOwn = (o: object, key: PropertyKey): boolean => Object.prototype.hasOwnProperty.call(o, key);
const isSchema = (v: unknown): v is Schema => v !== null && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): Schema[] => (Array.isArray(v) ? v.filter(isSchema) : []);
const names = (v: unknown): string[] => (Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : []);
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const dotted = (path: Path): string => (path.length ? path.join('.') : '(arguments)');

/** JSON type of a value; an integral number is an `integer` (which is also a `number`). */
function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function accepts(types: readonly string[], v: unknown): boolean {
  const t = jsonType(v);
  return types.includes(t) || (t === 'integer' && types.includes('number'));
}

/** The declared types (none declared: `undefined`, any type). */
function declaredTypes(s: Schema): string[] | undefined {
  return Array.isArray(s.type) ? names(s.type) : typeof s.type === 'string' ? [s.type] : undefined;
}

/** Follows local `$ref`s (`#/$defs/x`, `#/definitions/x`); sibling keywords win over the target's. */
function resolve(node: Schema, root: Schema): Schema {
  let s = node;
  for (let hops = 0; typeof s.$ref === 'string' && hops < 16; hops++) {
    const { $ref, ...siblings } = s;
    const segments = ($ref as string).replace(/^#\/?/, '').split('/').filter(Boolean);
    const target = segments.reduce<unknown>(
      (at, seg) => (isSchema(at) ? at[seg.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined),
      root
    );
    s = { ...(isSchema(target) ? target : {}), ...siblings };
  }
  return s;
}

/** Two schemas that must both hold, as one (for generation: `required` and `properties` joined). */
function merge(a: Schema, b: Schema): Schema {
  const required = [...new Set([...names(a.required), ...names(b.required)])];
  const properties = { ...(isSchema(a.properties) ? a.properties : {}), ...(isSchema(b.properties) ? b.properties : {}) };
  return { ...a, ...b, ...(required.length ? { required } : {}), ...(a.properties || b.properties ? { properties } : {}) };
}

/** The node with its `$ref` resolved and its `allOf` merged in. */
function flat(node: Schema, root: Schema): Schema {
  const s = resolve(node, root);
  if (!Array.isArray(s.allOf)) return s;
  const { allOf, ...rest } = s;
  return list(allOf).reduce<Schema>((acc, branch) => merge(acc, flat(branch, root)), rest);
}

function bounds(s: Schema): { min?: number; max?: number; minExcl: boolean; maxExcl: boolean } {
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  const exMin = num(s.exclusiveMinimum) ?? (s.exclusiveMinimum === true ? num(s.minimum) : undefined);
  const exMax = num(s.exclusiveMaximum) ?? (s.exclusiveMaximum === true ? num(s.maximum) : undefined);
  return {
    min: exMin ?? num(s.minimum),
    max: exMax ?? num(s.maximum),
    minExcl: exMin !== undefined,
    maxExcl: exMax !== undefined
  };
}

const FORMATS: Record<string, (v: string) => boolean> = {
  email: (v) => /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(v),
  uri: (v) => /^[a-z][a-z0-9+.-]*:[^\s]*$/i.test(v),
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && isoDate(v)?.slice(0, 10) === v,
  'date-time': (v) =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(v) && isoDate(v.slice(0, 10))?.slice(0, 10) === v.slice(0, 10)
};

/** A listed `pattern` as a RegExp: Unicode-aware where the pattern allows it (`\-` and friends are not valid with `u`). */
function regex(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return new RegExp(pattern);
  }
}

function isoDate(v: string): string | undefined {
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/**
 * Every way `value` fails `schema` (empty: it conforms), each as `path: keyword`. `root`
 * resolves `$ref`s.
 */
export function problems(schema: Schema, value: unknown, root: Schema = schema, path: Path = []): string[] {
  const s = resolve(schema, root);
  const out: string[] = [];
  const fail = (keyword: string) => out.push(`${dotted(path)}: ${keyword}`);
  const sub = (node: Schema, v: unknown, at: Path = path) => problems(node, v, root, at);
  const types = declaredTypes(s);
  if (types && !accepts(types, value)) {
    fail('type');
    return out;
  }
  if ('const' in s && !same(s.const, value)) fail('const');
  if (Array.isArray(s.enum) && !s.enum.some((e) => same(e, value))) fail('enum');
  if (typeof value === 'string') {
    const length = [...value].length; // code points, as JSON Schema counts
    if (typeof s.minLength === 'number' && length < s.minLength) fail('minLength');
    if (typeof s.maxLength === 'number' && length > s.maxLength) fail('maxLength');
    if (typeof s.pattern === 'string' && !regex(s.pattern).test(value)) fail('pattern');
    if (typeof s.format === 'string' && hasOwn(FORMATS, s.format) && !FORMATS[s.format](value)) fail('format');
  }
  if (typeof value === 'number') {
    const b = bounds(s);
    if (b.min !== undefined && (b.minExcl ? value <= b.min : value < b.min)) fail('minimum');
    if (b.max !== undefined && (b.maxExcl ? value >= b.max : value > b.max)) fail('maximum');
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems) fail('minItems');
    if (typeof s.maxItems === 'number' && value.length > s.maxItems) fail('maxItems');
    if (isSchema(s.items)) value.forEach((item, i) => out.push(...sub(s.items as Schema, item, [...path, i])));
  } else if (value !== null && typeof value === 'object') {
    const obj = value as Json;
    const props = isSchema(s.properties) ? s.properties : {};
    for (const key of names(s.required)) if (!hasOwn(obj, key)) fail(`required ${key}`);
    for (const key of Object.keys(obj)) {
      if (hasOwn(props, key) && isSchema(props[key])) out.push(...sub(props[key] as Schema, obj[key], [...path, key]));
      else if (s.additionalProperties === false) fail(`additionalProperties ${key}`);
      else if (isSchema(s.additionalProperties)) out.push(...sub(s.additionalProperties, obj[key], [...path, key]));
    }
  }
  for (const branch of list(s.allOf)) out.push(...sub(branch, value));
  const passes = (branch: Schema) => sub(branch, value).length === 0;
  if (Array.isArray(s.anyOf) && !list(s.anyOf).some(passes)) fail('anyOf');
  if (Array.isArray(s.oneOf) && list(s.oneOf).filter(passes).length !== 1) fail('oneOf');
  if (isSchema(s.if)) {
    const branch = passes(s.if) ? s.then : s.else;
    if (isSchema(branch)) out.push(...sub(branch, value));
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Conforming values

const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
const FORMAT_VALUES: Record<string, fc.Arbitrary<string>> = {
  email: fc.tuple(word, word).map(([user, host]) => `${user}@${host}.example`),
  uri: fc.tuple(word, word).map(([host, seg]) => `https://${host}.example/${seg}`),
  date: fc.date({ min: new Date('1970-01-01'), max: new Date('2100-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  'date-time': fc.date({ min: new Date('1970-01-01'), max: new Date('2100-12-31'), noInvalidDate: true }).map((d) => d.toISOString())
};

/** Candidate values for a node (not yet checked: {@link conforming} filters them). */
function values(node: Schema, root: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = flat(node, root);
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum) && s.enum.length > 0) return fc.constantFrom(...(s.enum as unknown[]));
  const branches = [...list(s.anyOf), ...list(s.oneOf)];
  if (branches.length > 0) {
    const { anyOf: _any, oneOf: _one, ...base } = s;
    return fc.oneof(...branches.map((b) => values(merge(base, flat(b, root)), root, depth)));
  }
  const types = declaredTypes(s) ?? (s.properties || s.required ? ['object'] : s.items ? ['array'] : ['string', 'integer', 'boolean']);
  return fc.oneof(...types.map((type) => typed(type, s, root, depth)));
}

function typed(type: string, s: Schema, root: Schema, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const b = bounds(s);
      const min = b.min === undefined ? undefined : b.minExcl ? Math.floor(b.min) + 1 : Math.ceil(b.min);
      const max = b.max === undefined ? undefined : b.maxExcl ? Math.ceil(b.max) - 1 : Math.floor(b.max);
      return fc.integer({ min: min ?? Math.min(-(2 ** 31), max ?? 0), max: max ?? Math.max(2 ** 31 - 1, min ?? 0) });
    }
    case 'number': {
      const b = bounds(s);
      return fc.double({ min: b.min, max: b.max, minExcluded: b.minExcl, maxExcluded: b.maxExcl, noNaN: true, noDefaultInfinity: true });
    }
    case 'string': {
      const minLength = typeof s.minLength === 'number' ? s.minLength : 0;
      const maxLength = Math.min(typeof s.maxLength === 'number' ? s.maxLength : Infinity, minLength + 24);
      if (typeof s.format === 'string' && hasOwn(FORMAT_VALUES, s.format)) return FORMAT_VALUES[s.format];
      if (typeof s.pattern === 'string') return fc.stringMatching(regex(s.pattern));
      return fc.oneof(fc.string({ minLength, maxLength }), fc.string({ unit: 'grapheme', minLength, maxLength }));
    }
    case 'array': {
      const minItems = typeof s.minItems === 'number' ? s.minItems : 0;
      const maxItems = Math.min(typeof s.maxItems === 'number' ? s.maxItems : Infinity, minItems + 4);
      return fc.array(values(isSchema(s.items) ? s.items : {}, root, depth + 1), { minLength: minItems, maxLength: maxItems });
    }
    case 'object': {
      if (depth > 8) return fc.constant({});
      const props = isSchema(s.properties) ? (s.properties as Record<string, Schema>) : {};
      const required = names(s.required);
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const key of new Set([...Object.keys(props), ...required])) model[key] = values(props[key] ?? {}, root, depth + 1);
      return fc.record(model, { requiredKeys: required, noNullPrototype: true });
    }
    default:
      return fc.constant(null);
  }
}

/** Values generated from `generateFrom` that conform to `checkAgainst`. */
function conforming(generateFrom: Schema, checkAgainst: Schema): fc.Arbitrary<Json> {
  return values(generateFrom, checkAgainst).filter((v) => problems(checkAgainst, v).length === 0) as fc.Arbitrary<Json>;
}

/** Argument sets that conform to `schema` (a tool's listed `inputSchema`). */
export function validArgs(schema: Schema): fc.Arbitrary<Record<string, unknown>> {
  return conforming(schema, schema);
}

// ---------------------------------------------------------------------------------------
// Broken values

/** One place in the schema where a constraint can be broken. */
interface Site {
  readonly path: Path;
  readonly schema: Schema;
  /** The object or array holding it (absent for the top level). */
  readonly parent?: Schema;
}

function sites(node: Schema, root: Schema, path: Path = [], parent?: Schema): Site[] {
  const s = flat(node, root);
  const here: Site[] = [{ path, schema: s, parent }];
  if (path.length > 6) return here;
  if (isSchema(s.properties)) {
    for (const [key, child] of Object.entries(s.properties)) if (isSchema(child)) here.push(...sites(child, root, [...path, key], s));
  }
  if (isSchema(s.items)) here.push(...sites(s.items, root, [...path, 0], s));
  return here;
}

/** The schema, with every object and array on the way to `path` made to hold it. */
function requireAlong(node: Schema, root: Schema, path: Path): Schema {
  if (path.length === 0) return node;
  const s = flat(node, root);
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    return {
      ...s,
      minItems: Math.max(typeof s.minItems === 'number' ? s.minItems : 0, head + 1),
      items: requireAlong(isSchema(s.items) ? s.items : {}, root, rest)
    };
  }
  const props = isSchema(s.properties) ? s.properties : {};
  return {
    ...s,
    required: [...new Set([...names(s.required), head])],
    properties: { ...props, [head]: requireAlong(isSchema(props[head]) ? props[head] : {}, root, rest) }
  };
}

/** A copy of `container` with `key` set; a prototype key becomes an OWN property (built by JSON.parse). */
function put(container: unknown, key: string | number, value: unknown): unknown {
  if (Array.isArray(container)) {
    const copy = [...container];
    copy[key as number] = value;
    return copy;
  }
  if (!(PROTOTYPE_KEYS as readonly unknown[]).includes(key)) return { ...(container as Json), [key]: value };
  const own = JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}}`) as Json;
  return { ...(container as Json), ...own }; // spreading defines own properties, `__proto__` included
}

function updateAt(value: unknown, path: Path, edit: (node: unknown) => unknown): unknown {
  if (path.length === 0) return edit(value);
  const [head, ...rest] = path;
  return put(value, head, updateAt((value as Json)[head as string], rest, edit));
}

/** A change at `target` (an object or array that the base value is made to hold). */
interface Mutation {
  readonly violation: Violation;
  readonly path: Path;
  readonly target: Path;
  readonly edit: (node: unknown) => unknown;
}

const replace = (violation: Violation, path: Path, value: unknown): Mutation => ({
  violation,
  path,
  target: path.slice(0, -1),
  edit: (node) => put(node, path[path.length - 1], value)
});

function nested(levels: number, arrays: boolean): unknown {
  let v: unknown = arrays ? [] : {};
  for (let i = 1; i < levels; i++) v = arrays ? [v] : { a: v };
  return v;
}

const WRONG_TYPES: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.integer().map(String),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
  fc.boolean(),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.constant({}),
  fc.constant({ value: 1 })
);

const BAD_FORMATS: Record<string, string[]> = {
  email: ['plainaddress', 'user@', '@example.com', 'two words@example.com', 'user@host', 'user@@example.com'],
  uri: ['not a uri', '//no-scheme.example', 'http//missing-colon', '', 'https://exa mple.com'],
  date: ['2025-13-01', '2025-02-30', '2025/01/01', '01-01-2025', 'today', '2025-1-1'],
  'date-time': ['2025-01-01', '2025-01-01 10:00:00', '2025-01-01T25:00:00Z', 'now', '2025-01-01T10:00:00']
};

/** The mutations a site offers. */
function mutations(site: Site, root: Schema, options: BrokenOptions): fc.WeightedArbitrary<Mutation>[] {
  const { path, schema: s } = site;
  const strings = options.strings === true;
  const types = declaredTypes(s);
  const out: fc.WeightedArbitrary<Mutation>[] = [];
  const add = (violation: Violation, arbitrary: fc.Arbitrary<Mutation>) => {
    // 1 MiB payloads are slow to send: drawn a quarter as often as the others.
    if (!options.exclude?.includes(violation)) out.push({ arbitrary, weight: violation === 'hugeValue' ? 1 : 4 });
  };
  /** Replaces the value at the site with one of `replacements`. */
  const at = (violation: Violation, replacements: fc.Arbitrary<unknown>) => {
    const toMutation = (value: unknown) => replace(violation, path, value);
    add(violation, replacements.map(toMutation));
  };
  /** Edits the object at the site; the key names what the edit is about. */
  const edit = (violation: Violation, edits: fc.Arbitrary<[string, Edit]>) => {
    const toMutation = ([key, fn]: [string, Edit]): Mutation => ({
      violation,
      path: [...path, key],
      target: path,
      edit: (node) => fn(node as Json)
    });
    add(violation, edits.map(toMutation));
  };

  if (site.parent) propertyMutations(s, types, root, strings, at);
  const isObject = types ? types.includes('object') : Boolean(s.properties);
  if (!isObject) return out;

  const props = isSchema(s.properties) ? s.properties : {};
  const without = (keys: string[]) => (obj: Json) => Object.fromEntries(Object.entries(obj).filter(([k]) => !keys.includes(k)));
  const set = (key: string, value: unknown): [string, Edit] => [key, (obj) => put(obj, key, value)];
  const setEntry = ([key, value]: [string, unknown]) => set(key, value);
  const removal = (key: string): [string, Edit] => [key, without([key])];
  const required = names(s.required);
  if (required.length > 0) edit('required', fc.constantFrom(...required).map(removal));
  // Required alternatives (`anyOf: [{required: [a]}, {required: [b]}]`): none of them given.
  const alternatives = [...list(s.anyOf), ...list(s.oneOf)].flatMap((b) => names(b.required));
  if (alternatives.length > 0) edit('required', fc.constant([alternatives.join('|'), without(alternatives)]));

  if (s.additionalProperties === false) {
    const declared = Object.keys(props);
    const misspelt = (k: string) => fc.constantFrom(`${k}s`, k.toUpperCase(), `${k} `, `_${k}`);
    const near = declared.length ? fc.constantFrom(...declared).chain(misspelt) : fc.constant('id');
    const undeclared = (k: string) => !hasOwn(props, k) && !(PROTOTYPE_KEYS as readonly string[]).includes(k);
    const key = fc.oneof(fc.string({ maxLength: 10 }), near, fc.constantFrom('$gt', '0', 'toString', 'hasOwnProperty')).filter(undeclared);
    const text = fc.string({ maxLength: 8 });
    const value = strings ? text : fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.constant({}));
    edit('additionalProperty', fc.tuple(key, value).map(setEntry));
    if (declared.length === 0 && !strings) {
      // No property to carry them: an undeclared one does.
      edit('hugeValue', fc.constant(set('huge', 'x'.repeat(HUGE))));
      edit('deepNesting', fc.constantFrom(set('nested', nested(DEEP_LEVELS, false)), set('nested', nested(DEEP_LEVELS, true))));
    }
  }
  if (!strings) {
    const poison = fc.constantFrom<unknown>({ polluted: true }, { toString: 'x' }, {}, 'x', 1, null, []);
    edit('prototypeKey', fc.tuple(fc.constantFrom<string>(...PROTOTYPE_KEYS), poison).map(setEntry));
  }
  return out;
}

/** The replacements of a property's value that break one of its constraints. */
function propertyMutations(
  s: Schema,
  types: string[] | undefined,
  root: Schema,
  strings: boolean,
  at: (violation: Violation, replacements: fc.Arbitrary<unknown>) => void
): void {
  const ofOtherType = (v: unknown) => types !== undefined && !accepts(types, v);
  if (types && !strings) at('type', WRONG_TYPES.filter(ofOtherType));
  if (!strings && !(types ?? TYPES).includes('null')) at('null', fc.constant(null));

  const numeric = types?.some((t) => t === 'integer' || t === 'number');
  const integral = !types?.includes('number');
  const b = bounds(s);
  if (numeric && b.min !== undefined) {
    // The largest value that is too small, and a range below it.
    const edge = integral ? (b.minExcl ? Math.floor(b.min) : Math.ceil(b.min) - 1) : b.minExcl ? b.min : b.min - 1;
    const below = integral
      ? fc.integer({ min: Math.max(Number.MIN_SAFE_INTEGER, edge - 1e6), max: edge })
      : fc.double({ min: b.min - 1e6, max: b.min, maxExcluded: !b.minExcl, noNaN: true });
    at('minimum', fc.oneof(fc.constant(edge), below));
  }
  if (numeric && b.max !== undefined) {
    const edge = integral ? (b.maxExcl ? Math.ceil(b.max) : Math.floor(b.max) + 1) : b.maxExcl ? b.max : b.max + 1;
    const above = integral
      ? fc.integer({ min: edge, max: Math.min(Number.MAX_SAFE_INTEGER, edge + 1e6) })
      : fc.double({ min: b.max, max: b.max + 1e6, minExcluded: !b.maxExcl, noNaN: true });
    at('maximum', fc.oneof(fc.constant(edge), above));
  }

  const stringy = types?.includes('string') ?? false;
  const minLength = typeof s.minLength === 'number' ? s.minLength : 0;
  const maxLength = typeof s.maxLength === 'number' ? s.maxLength : undefined;
  const codePoints = (v: unknown) => [...String(v)];
  const shorten = (v: unknown) =>
    codePoints(v)
      .slice(0, minLength - 1)
      .join('');
  const lengthen = (v: unknown) => String(v) + 'x'.repeat(Math.max(1, (maxLength ?? 0) + 1 - codePoints(v).length));
  if (stringy && minLength > 0) at('minLength', values(s, root).map(shorten));
  if (stringy && maxLength !== undefined) at('maxLength', values(s, root).map(lengthen));
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    const choices = s.enum as unknown[];
    const texts = choices.filter((c): c is string => typeof c === 'string');
    const near = (e: string) => fc.constantFrom(e.toUpperCase(), ` ${e}`, `${e}x`, e.slice(1), '');
    const outside = (v: unknown) => !choices.some((c) => same(c, v)) && (!types || accepts(types, v));
    at('enum', fc.oneof(texts.length ? fc.constantFrom(...texts).chain(near) : fc.integer(), fc.string({ maxLength: 8 })).filter(outside));
  }
  if (stringy && typeof s.format === 'string' && hasOwn(BAD_FORMATS, s.format)) at('format', fc.constantFrom(...BAD_FORMATS[s.format]));
  if (stringy && typeof s.pattern === 'string') {
    const re = regex(s.pattern);
    const odd = fc.constantFrom('', ' ', '!', 'abc', '-1', '1.5', '\u0000', '\u0661\u0662'); // the last: Arabic-Indic digits
    const mismatching = (v: string) => !re.test(v);
    at('pattern', fc.oneof(odd, fc.string({ maxLength: 8 })).filter(mismatching));
  }

  const isArray = types?.includes('array') ?? false;
  const item = values(isSchema(s.items) ? s.items : {}, root);
  const items = (n: number) => fc.array(item, { minLength: n, maxLength: n });
  if (isArray && typeof s.minItems === 'number' && s.minItems > 0) at('minItems', items(s.minItems - 1));
  if (isArray && typeof s.maxItems === 'number') at('maxItems', items(s.maxItems + 1));

  if (!strings) {
    const levels = fc.integer({ min: DEEP_LEVELS, max: DEEP_LEVELS + 24 });
    const nest = ([n, arrays]: [number, boolean]) => nested(n, arrays);
    at('deepNesting', fc.tuple(levels, fc.boolean()).map(nest));
  }
  // 1 MiB: past maxLength while keeping every other constraint, else of a wrong type.
  const fits = (h: string) => problems({ ...s, maxLength: undefined }, h, root).length === 0;
  const longest = maxLength === undefined ? undefined : ['a', '1', '0'].map((c) => c.repeat(HUGE)).find(fits);
  if (stringy && longest !== undefined) at('hugeValue', fc.constant(longest));
  else if (!strings && ofOtherType('x')) at('hugeValue', fc.constant('x'.repeat(HUGE)));
  else if (!strings && ofOtherType([])) at('hugeValue', fc.constant(new Array<string>(16).fill('x'.repeat(HUGE / 16))));
}

/** Short JSON for reports: long strings and arrays are abbreviated. */
export function preview(value: unknown, max = 300): string {
  const text = JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'string' && v.length > 40
      ? `${v.slice(0, 20)}…(${v.length} chars)`
      : Array.isArray(v) && v.length > 10
        ? `[${v.length} items]`
        : v
  );
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * Argument sets that break exactly one constraint of `schema` each, labelled with the
 * constraint and its path. Each starts from a conforming value (made to hold the path) and
 * changes one thing; unless the violation is one of {@link POLICY_VIOLATIONS}, the result is
 * checked not to conform. Throws when the schema has nothing to break.
 */
export function brokenArgs(schema: Schema, options: BrokenOptions = {}): fc.Arbitrary<BrokenArgs> {
  const all = sites(schema, schema).flatMap((site) => mutations(site, schema, options));
  if (all.length === 0) throw new Error(`brokenArgs: nothing to break in ${preview(schema)}`);
  return fc
    .oneof(...all)
    .chain((m) =>
      conforming(requireAlong(options.base ?? schema, schema, m.target), schema).map((base): BrokenArgs => ({
        violation: m.violation,
        path: dotted(m.path),
        args: updateAt(base, m.target, m.edit) as Json
      }))
    )
    .filter((b) => POLICY_VIOLATIONS.has(b.violation) || problems(schema, b.args).length > 0)
    .map((b) => Object.assign(b, { [fc.toStringMethod]: () => `${b.violation} at ${b.path}: ${preview(b.args)}` }));
}
