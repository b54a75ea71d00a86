import { compileSchemaCheck, setSchemaEngine, type SchemaViolation } from '../../../src/schema/schema-check';
import { codeGenerationAllowed } from '../../../src/schema/code-generation';
import type { JsonSchema } from '../../../src/types/core';

/**
 * The interpreted schema engine (what a Cloudflare Worker uses: it forbids the generated code of
 * Ajv's validators) refuses what Ajv refuses, in the same words: each value below is checked by
 * both engines and the violations compared.
 */
const NOTE: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 3 },
    count: { type: 'integer', minimum: 2, maximum: 9 },
    ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    code: { type: 'string', pattern: '^[a-z]+$' },
    mail: { type: 'string', format: 'email' },
    texts: { type: 'array', items: { type: 'string', maxLength: 2 }, minItems: 1, maxItems: 2 },
    kind: { enum: ['a', 'b'] },
    inner: { $ref: '#/definitions/Inner' }
  },
  required: ['name'],
  additionalProperties: false,
  definitions: {
    Inner: { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'], additionalProperties: false }
  }
};

const VALUES: readonly unknown[] = [
  { name: 'abc', count: 2, texts: ['ab'], inner: { n: 1 } },
  { name: null, count: 1.5 },
  { name: '', count: 10, extra: true },
  { name: 'abcd', count: 1 },
  { name: 'a', ratio: 0 },
  { name: 'a', ratio: 1 },
  { name: 'a', code: 'ABC' },
  { name: 'a', mail: 'not mail' },
  { name: 'a', texts: [] },
  { name: 'a', texts: ['a', 'b', 'c'] },
  { name: 'a', texts: ['abc', 5] },
  { name: 'a', kind: 'c' },
  { name: 'a', inner: { m: 1 } },
  { name: 'a', inner: { n: 0 } },
  { count: 'three' },
  'not an object',
  null
];

const sorted = (violations: SchemaViolation[]): SchemaViolation[] =>
  [...violations].sort((a, b) => `${a.path} ${a.message}`.localeCompare(`${b.path} ${b.message}`));

describe('the interpreted schema engine (runtimes that forbid generated code: Cloudflare Workers)', () => {
  afterEach(() => setSchemaEngine('auto'));

  it('is not what Node uses: Node allows generated code, so Ajv compiles', () => {
    expect(codeGenerationAllowed()).toBe(true);
  });

  it.each(VALUES.map((value) => [JSON.stringify(value), value]))('refuses %s as Ajv does, in the same words', (_name, value) => {
    setSchemaEngine('compiled');
    const compiled = compileSchemaCheck(NOTE, 'tool t')(value);
    setSchemaEngine('interpreted');
    const interpreted = compileSchemaCheck(NOTE, 'tool t')(value);
    expect(sorted(interpreted)).toEqual(sorted(compiled));
  });

  it('skips the meta-schema check of hand-written parts (it needs Ajv) and still checks values', () => {
    setSchemaEngine('interpreted');
    const check = compileSchemaCheck({ type: 'object', properties: { n: { type: 'integer', minimum: 'five' } } }, 'tool t', true);
    expect(check({ n: 'x' }).map((v) => v.path)).toEqual(['n']);
  });
});
