import fc from 'fast-check';
import { inspect, isDeepStrictEqual } from 'node:util';
import { Exclude, Expose, Transform, Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsDefined,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsPositive,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  Validate,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface
} from 'class-validator';
import { JSONSchema, type Constructor } from '@mcpfusion/core';
import { SchemaCatalog } from '../../src/schema/json-schema';
import { createInputValidator, type InputValidator, type ValidationOutcome } from '../../src/schema/input-validator';
import { compileSchemaCheck } from '../../src/schema/schema-check';
import { schemaImpliesClass } from '../../src/schema/schema-exactness';
import { createBillingApp } from '../../sample-app/app';
import { createConformanceApp } from '../conformance/server';
import { tempDb, TEST_STATE_KEY } from '../../sample-app/test-helpers';
import { brokenArgs, validArgs, type BrokenOptions, type Schema } from './schema-arbitraries';

/**
 * DIFFERENTIAL fuzzing of the fast path of input validation. Where `schemaImpliesClass` decides
 * (at startup) that the listed schema carries every class-validator constraint of an input
 * class, an input the compiled listed schema accepts skips class-transformer and
 * class-validator and is built by `instantiate`. For each such class (those of the sample app
 * and of the conformance server, and hand-written ones covering each constraint it accepts),
 * two validators are built from the same listed schema, one with the fast path and one
 * without, and fed the same inputs: conforming ones (`validArgs`), ones that break one
 * constraint (`brokenArgs`), hand-picked edge cases (null and undefined for optional
 * properties, 1.5 for integers, surrogate pairs and variation selectors around maxLength,
 * Infinity / NaN passed in-process, extra and missing properties) and random edits of
 * conforming inputs. Both must give the same verdict, the same violations when refusing, and
 * when accepting an instance of the same class with the same own properties; neither may throw.
 *
 * Also: `schemaImpliesClass` is checked on classes it must accept and classes it must refuse;
 * probes (classes whose listed schema is looser than the class by routes other than a
 * constraint: Ajv's `nullable`, `patternProperties`, an undecorated field, ...) must agree
 * wherever they are found exact; the harness itself is checked to find a difference when the
 * fast path is forced on classes it refuses (so a pass is not a toothless one); and the app
 * classes found exact are reported.
 *
 * Reproduce a failure with the seed it prints: `FUZZ_SEED=<seed> npx jest test/fuzz/exact-schema`.
 */

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20260728;
if (!Number.isSafeInteger(SEED)) throw new Error(`FUZZ_SEED must be an integer, not ${process.env.FUZZ_SEED}`);
/** Runs per class and property. */
const RUNS = { valid: 150, broken: 120, edited: 300 };
/** Conforming inputs each hand-picked edge case is applied to. */
const BASES = 3;

// ---------------------------------------------------------------------------------------
// Hand-written input classes

enum Color {
  Red = 'red',
  Green = 'green',
  Blue = 'blue'
}

enum Level {
  Low = 1,
  High = 2
}

/** Classes `schemaImpliesClass` must find exact: each constraint it accepts, alone and combined. */
class StringRules {
  @IsString() name!: string;
  @IsOptional() @IsString() @MaxLength(4) nick?: string;
  @IsString() @Matches(/^[a-z]+\d*$/) code!: string;
  @IsOptional() @Matches(/^\d{2,3}$/) @MaxLength(3) digits?: string;
  @IsOptional() @MaxLength(0) empty?: string;
  @IsOptional() @IsString() @MaxLength(1) one?: string;
}

class NumberRules {
  @IsInt() @Min(1) @Max(10) count!: number;
  @IsOptional() @IsNumber() @Min(-2.5) @Max(1e6) ratio?: number;
  @IsOptional() @IsNumber() free?: number;
  @IsOptional() @IsInt() anyInt?: number;
  @IsOptional() @Min(0) minOnly?: number;
  @IsOptional() @IsInt() @Max(-1) negative?: number;
  @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) finite?: number;
}

class BooleanRules {
  @IsBoolean() flag!: boolean;
  @IsOptional() @IsBoolean() maybe?: boolean;
}

class EnumRules {
  @IsEnum(Color) color!: Color;
  @IsOptional() @IsEnum(Level) level?: Level;
  @IsOptional() @IsIn(['a', 'b', 'c']) letter?: string;
  @IsOptional() @IsIn([1, 2, 3]) small?: number;
  @IsOptional() @IsString() @IsIn(['x', 'y']) both?: string;
  @JSONSchema({ enum: ['red'] }) @IsOptional() @IsEnum(Color) narrowed?: Color;
}

/** `@IsIn` of booleans (listed `type: boolean, enum: [true]`). */
class BooleanEnumRules {
  @IsIn([true]) yes!: boolean;
  @IsOptional() @IsIn([false]) no?: boolean;
}

/** `@JSONSchema` overrides that describe, or narrow, without changing what a constraint means. */
class NarrowingOverrides {
  @JSONSchema({ description: 'An id.', examples: [1, 2] }) @IsInt() @Min(0) id!: number;
  @JSONSchema({ title: 'Tag', maxLength: 3 }) @IsOptional() @IsString() tag?: string;
  @JSONSchema({ minimum: 5, maximum: 9 }) @IsOptional() @IsInt() bounded?: number;
  @JSONSchema({ pattern: '^[a-z]*$' }) @IsOptional() @IsString() @MaxLength(5) lower?: string;
}

class WithDefault {
  @IsOptional() @IsInt() @Min(1) @Max(100) limit?: number = 100;
  @IsOptional() @IsString() label?: string = 'none';
}

class InheritedRules extends BooleanRules {
  @IsOptional() @IsInt() @Min(0) extra?: number;
  @IsOptional() @IsString() @MaxLength(2) short?: string;
}

/** Every property optional: `{}` and `null`s everywhere. */
class AllOptional {
  @IsOptional() @IsInt() @Min(0) @Max(3) a?: number;
  @IsOptional() @IsString() @Matches(/^(yes|no)$/) b?: string;
  @IsOptional() @IsEnum(Color) c?: Color;
}

@ValidatorConstraint({ name: 'isEven' })
class IsEven implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'number' && value % 2 === 0;
  }
  defaultMessage(): string {
    return '$property must be even';
  }
}

/** Classes `schemaImpliesClass` must refuse: a constraint the listed schema does not carry exactly, or a transformation. */
class MinLengthRule {
  @IsString() @MinLength(2) s!: string;
}
class LengthRule {
  @IsString() @Length(1, 5) s!: string;
}
class MatchesFlagRule {
  @IsString() @Matches(/^x+$/i) s!: string;
}
class MatchesStringRule {
  @IsString() @Matches('^x+$') s!: string;
}
class ValidateIfRule {
  @IsOptional() @IsString() kind?: string;
  @ValidateIf((o: ValidateIfRule) => o.kind === 'a') @IsString() s!: string;
}
class CustomRule {
  @IsInt() @Validate(IsEven) n!: number;
}
class DecimalPlacesRule {
  @IsNumber({ maxDecimalPlaces: 2 }) n!: number;
}
class EachRule {
  @IsArray() @IsString({ each: true }) tags!: string[];
}
class NestedRule {
  @IsObject() @ValidateNested() @Type(() => StringRules) child!: StringRules;
}
class TypeOverrideRule {
  @JSONSchema({ type: 'string' }) @IsInt() n!: number;
}
class NullableUnionRule {
  @JSONSchema({ type: ['string', 'null'] } as never) @IsString() s!: string;
}
class GroupsRule {
  @IsString({ groups: ['admin'] }) s!: string;
}
class AlwaysRule {
  @IsString({ always: true }) s!: string;
}
class TransformRule {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value)) @IsString() s!: string;
}
class ExposeRenameRule {
  @Expose({ name: 'n' }) @IsString() name!: string;
}
@Exclude()
class ExcludeAllRule {
  @Expose() @IsString() s!: string;
}
class MaxLengthOverrideRule {
  @JSONSchema({ maxLength: 10 }) @IsString() @MaxLength(5) s!: string;
}
class MinOverrideRule {
  @JSONSchema({ minimum: 0 }) @IsInt() @Min(5) n!: number;
}
class OptionalOnlyRule {
  @IsOptional() x?: unknown;
}
class IsDefinedRule {
  @IsDefined() @IsString() s!: string;
}
/** The function form replaces what the converter made (the object form merges `required`). */
@JSONSchema(((schema: object) => ({ ...schema, required: [] })) as never)
class RequiredDroppedRule {
  @IsString() s!: string;
}
@JSONSchema({ additionalProperties: true })
class OpenObjectRule {
  @IsString() s!: string;
}
@JSONSchema({ properties: { ghost: { type: 'string' } } } as never)
class ListedUndeclaredRule {
  @IsString() s!: string;
}
class PositiveRule {
  @IsInt() @IsPositive() n!: number;
}
class EmailRule {
  @IsString() @IsEmail() s!: string;
}
class MixedIsInRule {
  @IsIn(['a', 1]) v!: string | number;
}

/**
 * Probes: classes whose listed schema lets through what the class refuses, by routes the
 * constraint-by-constraint check does not look at. Where `schemaImpliesClass` says they are
 * exact, the fast path must still agree with the class path.
 */
/** No property at all: class-validator refuses any value of a class without metadata (`forbidUnknownValues`). */
class NoProperties {}
/** Ajv honours the OpenAPI `nullable` keyword: the listed schema accepts null, `@IsString()` does not. */
class NullableKeywordProbe {
  @JSONSchema({ nullable: true } as never) @IsString() name!: string;
}
/** `additionalProperties: false` lets through what `patternProperties` matches; the class forbids it. */
@JSONSchema({ patternProperties: { '^x-': {} } } as never)
class PatternPropertiesProbe {
  @IsString() name!: string;
}
/** A field without decorators: an own property of every instance, which class-validator's whitelist refuses. */
class UndecoratedFieldProbe {
  @IsString() name!: string;
  note = 'default';
}
/** A custom constraint registered under a built-in's name (here `maxLength`, counting UTF-8 bytes). */
function MaxBytes(max: number): PropertyDecorator {
  return ValidateBy({
    name: 'maxLength',
    constraints: [max],
    validator: {
      validate: (value) => typeof value === 'string' && Buffer.byteLength(value, 'utf8') <= max,
      defaultMessage: () => `$property must be at most ${max} bytes`
    }
  });
}
class BuiltinNameProbe {
  @IsString() @MaxBytes(3) name!: string;
}

const MUST_BE_EXACT: readonly Constructor[] = [
  StringRules,
  NumberRules,
  BooleanRules,
  EnumRules,
  BooleanEnumRules,
  NarrowingOverrides,
  InheritedRules,
  AllOptional
];

const MUST_BE_REFUSED: ReadonlyArray<[string, Constructor]> = [
  // A default is validated by class-validator without the listed schema having seen it: kept on the class path.
  ['default values', WithDefault],
  ['@MinLength', MinLengthRule],
  ['@Length', LengthRule],
  ['@Matches with a flag', MatchesFlagRule],
  ['@Matches with a string pattern', MatchesStringRule],
  ['@ValidateIf', ValidateIfRule],
  ['a custom @Validate constraint', CustomRule],
  ['@IsNumber({ maxDecimalPlaces })', DecimalPlacesRule],
  ['each: true', EachRule],
  ['a nested @ValidateNested @Type class', NestedRule],
  ['@JSONSchema changing the type', TypeOverrideRule],
  ['@JSONSchema with a type list', NullableUnionRule],
  ['groups', GroupsRule],
  ['always: true', AlwaysRule],
  ['@Transform', TransformRule],
  ['@Expose with another name', ExposeRenameRule],
  ['a class-level @Exclude strategy', ExcludeAllRule],
  ['@JSONSchema loosening maxLength', MaxLengthOverrideRule],
  ['@JSONSchema loosening minimum', MinOverrideRule],
  ['@IsOptional alone (no type)', OptionalOnlyRule],
  ['@IsDefined', IsDefinedRule],
  ['a required property not listed as required', RequiredDroppedRule],
  ['additionalProperties: true', OpenObjectRule],
  ['a listed property the class does not declare', ListedUndeclaredRule],
  ['@IsPositive', PositiveRule],
  ['@IsEmail', EmailRule],
  ['@IsIn with mixed types', MixedIsInRule]
];

const PROBES: ReadonlyArray<[string, Constructor]> = [
  ['a class without properties', NoProperties],
  ['@JSONSchema({ nullable: true }) on a required @IsString', NullableKeywordProbe],
  ['class-level patternProperties', PatternPropertiesProbe],
  ['an undecorated field', UndecoratedFieldProbe],
  ['a custom constraint named like a built-in (maxLength)', BuiltinNameProbe]
];

/**
 * Refused classes where forcing the fast path on must make the harness find a difference
 * (the listed schema accepts something the class refuses, or the class transforms).
 */
const FORCED_MUST_DIFFER: ReadonlyArray<[string, Constructor]> = [
  ['@MinLength (variation selectors)', MinLengthRule],
  ['a custom @Validate constraint', CustomRule],
  ['@IsNumber({ maxDecimalPlaces })', DecimalPlacesRule],
  ['a nested @ValidateNested @Type class', NestedRule],
  ['@JSONSchema changing the type', TypeOverrideRule],
  ['@Transform', TransformRule],
  ['@Expose with another name', ExposeRenameRule]
];

// ---------------------------------------------------------------------------------------
// The differential check

const catalog = new SchemaCatalog();

/** A value for a report: undefined, NaN, -0 and non-ASCII shown as they are (escaped). */
function show(value: unknown): string {
  const text = inspect(value, { depth: 4, breakLength: Infinity, maxStringLength: 120, maxArrayLength: 10 });
  return text.replace(/[^\x20-\x7e]/gu, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`);
}

/** What a validator did with an input: its outcome, or what it threw (a validator must never throw). */
type Verdict = ValidationOutcome | { readonly thrown: unknown };

function verdictOf(validator: InputValidator, raw: Record<string, unknown>): Verdict {
  try {
    return validator(raw);
  } catch (thrown) {
    return { thrown };
  }
}

const describeVerdict = (v: Verdict): string =>
  'thrown' in v
    ? `threw ${v.thrown instanceof Error ? `${v.thrown.name}: ${v.thrown.message}` : show(v.thrown)}`
    : v.value !== undefined
      ? `accepted ${Object.getPrototypeOf(v.value)?.constructor?.name ?? 'null-prototype'} ${show({ ...v.value })}`
      : `refused ${show(v.violations)}`;

/** The two validators of a class, from the same listed schema: with the fast path, and without. */
interface Pair {
  readonly name: string;
  readonly schema: Schema;
  readonly fast: InputValidator;
  readonly full: InputValidator;
  /** Options of its `brokenArgs`. */
  readonly broken: BrokenOptions;
}

/**
 * `brokenArgs` breaks an `enum` with a string or an integer of the listed type: a boolean enum
 * has none (the generator would never find one), so its enum is broken by the hand-picked and
 * edited inputs (`false`, `'true'`, …) instead.
 */
const BROKEN_OPTIONS = new Map<Constructor, BrokenOptions>([[BooleanEnumRules, { exclude: ['enum'] }]]);

function pairOf(name: string, type: Constructor, schema: Schema): Pair {
  return {
    name,
    schema,
    fast: createInputValidator(type, compileSchemaCheck(schema, name), true),
    full: createInputValidator(type, compileSchemaCheck(schema, name), false),
    broken: BROKEN_OPTIONS.get(type) ?? {}
  };
}

/** How the two validators disagree on `raw`, if they do. */
function disagreement(pair: Pair, raw: Record<string, unknown>): string | undefined {
  const fast = verdictOf(pair.fast, raw);
  const full = verdictOf(pair.full, raw);
  const both = `fast path ${describeVerdict(fast)}, class path ${describeVerdict(full)}`;
  if ('thrown' in fast || 'thrown' in full) return `a validator threw: ${both}`;
  if (fast.violations && full.violations)
    return isDeepStrictEqual(fast.violations, full.violations) ? undefined : `different violations: ${both}`;
  if (fast.value === undefined || full.value === undefined) return `different verdicts: ${both}`;
  if (Object.getPrototypeOf(fast.value) !== Object.getPrototypeOf(full.value)) return `different prototypes: ${both}`;
  if (!isDeepStrictEqual({ ...fast.value }, { ...full.value })) return `different own properties: ${both}`;
  return undefined;
}

const hasOwn = (o: object, key: PropertyKey): boolean => Object.prototype.hasOwnProperty.call(o, key);
const propertiesOf = (schema: Schema): Record<string, Schema> => (schema.properties ?? {}) as Record<string, Schema>;
const requiredOf = (schema: Schema): string[] => (Array.isArray(schema.required) ? (schema.required as string[]) : []);

/** A copy of `base` with `key` set (an own property, `__proto__` included) or, for `deleted`, removed. */
function withKey(base: Record<string, unknown>, key: string, value: unknown, deleted = false): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const k of Object.keys(base))
    if (k !== key) Object.defineProperty(copy, k, { value: base[k], enumerable: true, writable: true, configurable: true });
  if (!deleted) Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** `n` code points made of `unit` repeated (cut by code points). */
const codePoints = (unit: string, n: number): string => [...unit.repeat(n)].slice(0, n).join('');

/**
 * Units whose counts differ between JSON Schema (code points) and validator.js (UTF-16 units,
 * less surrogate pairs, less variation selectors after a character): pairs, selectors, lone
 * and reversed surrogates, combining marks, a ZWJ sequence.
 */
const LENGTH_UNITS = [
  'a',
  '\u{1F600}',
  'a\uFE0F',
  '\u{1F600}\uFE0F',
  '\u2764\uFE0E',
  '\uFE0F',
  'e\u0301',
  '\uD83D',
  '\uDE00',
  '\uDE00\uD83D',
  '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}'
];

const PATTERN_EDGES = [
  '',
  '0',
  '9',
  '00',
  '123',
  '1234',
  '12a',
  'a12',
  '1\n',
  '\n1',
  '1 ',
  '\uFF11\uFF12',
  '\u0661\u0662',
  '\u0000',
  'abc',
  'ABC',
  'abc123',
  'Abc',
  'a-b',
  'yes',
  'no',
  'yes\n',
  'YES',
  'x'.repeat(200)
];

/** Values of any type, for any property (some only an in-process caller can pass). */
const ANY_VALUE: readonly unknown[] = [
  null,
  undefined,
  true,
  false,
  0,
  -0,
  1,
  -1,
  1.5,
  '',
  'x',
  ' x ',
  '1',
  'true',
  [],
  ['x'],
  {},
  { a: 1 },
  NaN,
  Infinity,
  -Infinity
];

/** Hand-picked values for a property with listed schema `s`. */
function edgeValues(s: Schema): unknown[] {
  const out: unknown[] = [...ANY_VALUE];
  if (s.type === 'integer' || s.type === 'number') {
    out.push(
      1.5,
      -1.5,
      0.1,
      0.001,
      2 ** 53,
      2 ** 53 + 2,
      -(2 ** 53),
      1e21,
      1e308,
      -1e308,
      Number.MIN_VALUE,
      Number.MAX_VALUE,
      Number.EPSILON
    );
    for (const bound of [s.minimum, s.maximum]) {
      if (typeof bound === 'number') out.push(bound, bound - 1, bound + 1, bound - 0.5, bound + 0.5, bound - 1e-9, bound + 1e-9, -bound);
    }
  }
  if (s.type === 'string') {
    const lengths = new Set<number>([0, 1, 2, 3, 64]);
    for (const bound of [s.minLength, s.maxLength])
      if (typeof bound === 'number') for (const n of [bound - 1, bound, bound + 1]) if (n >= 0) lengths.add(n);
    for (const unit of LENGTH_UNITS) for (const n of lengths) out.push(codePoints(unit, n));
    out.push(...PATTERN_EDGES);
  }
  for (const choice of Array.isArray(s.enum) ? (s.enum as unknown[]) : []) {
    out.push(choice, String(choice));
    if (typeof choice === 'string') out.push(choice.toUpperCase(), ` ${choice}`, `${choice} `, `${choice}\n`);
    if (typeof choice === 'number') out.push(choice + 1, -choice, choice + 0.5);
  }
  return out;
}

/** Random values for a property (any type, and values close to its own). */
function randomValues(s: Schema): fc.Arbitrary<unknown> {
  const own: fc.Arbitrary<unknown>[] = [fc.constantFrom(...edgeValues(s)), fc.jsonValue({ maxDepth: 1 })];
  if (s.type === 'integer' || s.type === 'number') {
    const lo = typeof s.minimum === 'number' ? Math.ceil(s.minimum) - 3 : -1000;
    const hi = typeof s.maximum === 'number' ? Math.floor(s.maximum) + 3 : 1000;
    own.push(fc.double(), fc.integer({ min: Math.min(lo, hi), max: Math.max(lo, hi) }), fc.double({ min: lo, max: hi, noNaN: true }));
  }
  if (s.type === 'string') {
    const maxLength = (typeof s.maxLength === 'number' ? s.maxLength : 8) + 2;
    own.push(
      fc.string({ unit: 'binary', maxLength }),
      fc.string({ unit: 'grapheme', maxLength }),
      fc.string({ unit: 'binary-ascii', maxLength })
    );
    if (typeof s.pattern === 'string') {
      const re = new RegExp(s.pattern);
      own.push(
        fc.stringMatching(re),
        fc.stringMatching(re).map((v) => `${v}\n`),
        fc.stringMatching(re).map((v) => `${v}\uFE0F`)
      );
    }
  }
  return fc.oneof(...own);
}

/** Conforming inputs with one to three random edits: a property set to a random or hand-picked value, removed, or added. */
function editedArgs(schema: Schema): fc.Arbitrary<Record<string, unknown>> {
  const properties = propertiesOf(schema);
  const declared = Object.keys(properties);
  const undeclared = fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.constantFrom('extra', 'toString', 'constructor', '__proto__', '', 'NAME', 'x-y')
  );
  const key = declared.length
    ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...declared) }, { weight: 1, arbitrary: undeclared })
    : undeclared;
  // Built once per property (a chain would rebuild them for every value drawn).
  const byKey = new Map(declared.map((k) => [k, randomValues(properties[k])]));
  const anyType = randomValues({});
  const edit = key.chain((k) => fc.tuple(fc.constant(k), byKey.get(k) ?? anyType, fc.nat(9)));
  return fc
    .tuple(validArgs(schema), fc.array(edit, { minLength: 1, maxLength: 3 }))
    .map(([base, edits]) => edits.reduce((args, [k, value, roll]) => withKey(args, k, value, roll === 0), base));
}

/** Hand-picked inputs: each property of a few conforming bases set to each edge value or removed, plus object-level cases. */
function handPicked(schema: Schema): Array<Record<string, unknown>> {
  const properties = propertiesOf(schema);
  const required = requiredOf(schema);
  const optional = Object.keys(properties).filter((k) => !required.includes(k));
  const bases = fc.sample(validArgs(schema), { seed: SEED, numRuns: BASES });
  const out: Array<Record<string, unknown>> = [{}];
  for (const base of bases) {
    out.push(base);
    out.push(Object.fromEntries(Object.entries(base).filter(([k]) => required.includes(k))));
    for (const [name, property] of Object.entries(properties)) {
      out.push(withKey(base, name, undefined, true));
      for (const value of edgeValues(property)) out.push(withKey(base, name, value));
    }
    out.push(Object.fromEntries([...Object.entries(base), ...optional.map((k) => [k, null])]));
    out.push(Object.fromEntries([...Object.entries(base), ...optional.map((k) => [k, undefined])]));
    out.push(Object.fromEntries(Object.entries(base).map(([k]) => [k, undefined])));
    for (const extra of ['extra', 'toString', 'constructor', '', 'x-y', ...Object.keys(properties).map((k) => k.toUpperCase())]) {
      if (!hasOwn(properties, extra)) out.push(withKey(base, extra, 1), withKey(base, extra, undefined));
    }
    out.push({ ...base, ...(JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>) });
  }
  return out;
}

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/**
 * The listed schema with each property that has a `pattern` drawn from a few conforming values
 * (an `enum` of them), for `brokenArgs`' starting values: it builds them anew for every run,
 * and a `pattern` makes that slow (`fc.stringMatching`). The broken property's own values, the
 * valid runs and the edited runs still use the full pattern.
 */
function cheapBase(schema: Schema): Schema | undefined {
  const properties = propertiesOf(schema);
  const patterned = Object.keys(properties).filter((name) => typeof properties[name].pattern === 'string');
  if (patterned.length === 0) return undefined;
  const narrowed = { ...properties };
  for (const name of patterned) {
    const alone: Schema = { type: 'object', properties: { [name]: properties[name] }, required: [name] };
    const drawn = fc.sample(validArgs(alone), { seed: SEED, numRuns: 24 }).map((v) => v[name]);
    narrowed[name] = { ...properties[name], enum: [...new Set(drawn)] };
  }
  return { ...schema, properties: narrowed };
}

/**
 * Every difference the harness finds between the two validators of a class (empty: none);
 * with `firstOnly`, it stops at the first input that shows one (and does not shrink it).
 */
function differences(pair: Pair, firstOnly = false): string[] {
  const failures: string[] = [];
  const check = (what: string, arbitrary: () => fc.Arbitrary<Record<string, unknown>>, numRuns: number) => {
    if (firstOnly && failures.length > 0) return;
    const property = fc.property(arbitrary(), (raw) => {
      const found = disagreement(pair, raw);
      if (found) throw new Error(`input ${show(raw)}: ${found}`);
    });
    try {
      fc.assert(property, { seed: SEED, numRuns, endOnFailure: firstOnly });
    } catch (error) {
      const cause = (error as Error).cause instanceof Error ? `\n${((error as Error).cause as Error).message}` : '';
      failures.push(`${pair.name} (${what}): ${clip((error as Error).message.replace(/\nHint: .*/, ''), 1500)}${clip(cause, 1500)}`);
    }
  };
  for (const raw of handPicked(pair.schema)) {
    const found = disagreement(pair, raw);
    if (found) {
      failures.push(`${pair.name} (hand-picked): input ${show(raw)}: ${found}`);
      break; // one is enough to name the problem; the properties below shrink their own
    }
  }
  check('valid arguments', () => validArgs(pair.schema), RUNS.valid);
  check(
    'broken arguments',
    () => brokenArgs(pair.schema, { base: cheapBase(pair.schema), ...pair.broken }).map((b) => b.args),
    RUNS.broken
  );
  check('edited arguments', () => editedArgs(pair.schema), RUNS.edited);
  return failures;
}

function assertAgree(pairs: readonly Pair[]): void {
  const failures = pairs.flatMap((pair) => differences(pair));
  if (failures.length > 0) throw new Error(`FUZZ_SEED=${SEED}: ${failures.length} failure(s)\n\n${failures.join('\n\n')}`);
}

// ---------------------------------------------------------------------------------------
// The classes of the apps

/** The input classes of the sample app and the conformance server, with the members that take them. */
async function appInputClasses(): Promise<Map<Constructor, string[]>> {
  const found = new Map<Constructor, string[]>();
  const original = SchemaCatalog.prototype.validatorOf;
  const spy = jest.spyOn(SchemaCatalog.prototype, 'validatorOf').mockImplementation(function (this: SchemaCatalog, type, owner) {
    if (type) found.set(type, [...(found.get(type) ?? []), owner]);
    return original.call(this, type, owner);
  });
  const db = tempDb();
  try {
    const apps = [createBillingApp({ dbPath: db.path, stateKey: TEST_STATE_KEY }), createConformanceApp()];
    for (const app of apps) await app.close();
  } finally {
    spy.mockRestore();
    db.remove();
  }
  return found;
}

// ---------------------------------------------------------------------------------------

describe('schemaImpliesClass', () => {
  it.each(MUST_BE_EXACT.map((type) => [type.name, type] as const))('finds %s exact', (_name, type) => {
    expect(schemaImpliesClass(type, catalog.schemaOf(type))).toBe(true);
  });
  it.each(MUST_BE_REFUSED)('refuses %s', (_what, type) => {
    expect(schemaImpliesClass(type, catalog.schemaOf(type))).toBe(false);
  });
});

describe('exact schemas: the fast path agrees with class-transformer + class-validator', () => {
  let apps: Array<{ type: Constructor; owners: string[]; exact: boolean }> = [];

  beforeAll(async () => {
    const found = await appInputClasses();
    apps = [...found].map(([type, owners]) => ({ type, owners, exact: schemaImpliesClass(type, catalog.schemaOf(type)) }));
  });

  it('reports which input classes of the apps are exact', () => {
    expect(apps.length).toBeGreaterThan(5);
    const line = (a: (typeof apps)[number]) => `  ${a.type.name} (${a.owners.join(', ')})`;
    // The sample app's input classes all take the fast path (so the other fuzzers exercise it).
    expect(
      apps.filter((a) => a.owners.some((o) => /^(Billing|Adjustment|Report|Account|Invoice|Collections)/.test(o))).every((a) => a.exact)
    ).toBe(true);
    if (process.env.FUZZ_REPORT)
      console.log(
        [
          `exact (fast path): ${apps.filter((a) => a.exact).length} of ${apps.length} input classes`,
          ...apps.filter((a) => a.exact).map(line),
          'not exact (class path):',
          ...apps.filter((a) => !a.exact).map(line)
        ].join('\n')
      );
  });

  it('app input classes', () => {
    assertAgree(apps.filter((a) => a.exact).map((a) => pairOf(a.type.name, a.type, catalog.schemaOf(a.type))));
  });

  it.each(MUST_BE_EXACT.map((type) => [type.name, type] as const))('hand-written %s', (name, type) => {
    assertAgree([pairOf(name, type, catalog.schemaOf(type))]);
  });

  it.each(PROBES)('probe: %s (where it is found exact)', (what, type) => {
    const schema = catalog.schemaOf(type);
    if (!schemaImpliesClass(type, schema)) return; // the class path: nothing to compare
    assertAgree([pairOf(`${type.name} [${what}]`, type, schema)]);
  });
});

describe('the harness finds a difference where the fast path is forced on a class it must refuse', () => {
  it.each(FORCED_MUST_DIFFER)('%s', (_what, type) => {
    expect(differences(pairOf(type.name, type, catalog.schemaOf(type)), true).length).toBeGreaterThan(0);
  });
});
