import { ask } from '../../../src/interactive/ask';
import { validateAnswers, type FormSchema } from '../../../src/interactive/answer-validator';
import { requireInput } from '../../../src/interactive/require-input';
import type { JsonSchema } from '../../../src/types/core';

/** A form of one field, `required` unless told otherwise. */
function form(field: JsonSchema, required = true): FormSchema {
  return { type: 'object', properties: { f: field }, required: required ? ['f'] : [] };
}

/** The outcome of answering the one-field form with `value`. */
function answer(field: JsonSchema, value: unknown) {
  return validateAnswers(form(field), { f: value });
}

function accepts(field: JsonSchema, value: unknown): void {
  const { values, problems } = answer(field, value);
  expect(problems).toEqual([]);
  expect(values.f).toEqual(value);
}

function refuses(field: JsonSchema, value: unknown, problem: string): void {
  const { values, problems } = answer(field, value);
  expect(problems).toEqual([problem]);
  expect('f' in values).toBe(false);
}

describe('validateAnswers: the answer as a whole', () => {
  const schema: FormSchema = {
    type: 'object',
    properties: { name: { type: 'string' }, age: { type: 'integer' } },
    required: ['name']
  };

  it.each([
    ['an array', ['a']],
    ['an empty array', []],
    ['a string', 'name'],
    ['a number', 42],
    ['a boolean', true],
    ['null', null],
    ['undefined', undefined],
    ['a function', () => ({ name: 'a' })]
  ])('refuses %s as the answer, with a null-prototype empty values', (_label, content) => {
    const { values, problems } = validateAnswers(schema, content);
    expect(problems).toEqual(['the answer is not an object of fields']);
    expect(Object.getPrototypeOf(values)).toBeNull();
    expect(Object.keys(values)).toEqual([]);
  });

  it('accepts the declared fields and returns them in a null-prototype object', () => {
    const { values, problems } = validateAnswers(schema, { name: 'Ada', age: 36 });
    expect(problems).toEqual([]);
    expect(Object.getPrototypeOf(values)).toBeNull();
    expect({ ...values }).toEqual({ name: 'Ada', age: 36 });
  });

  it('ignores fields the schema does not declare', () => {
    const { values, problems } = validateAnswers(schema, { name: 'Ada', admin: true, age: 36, extra: { deep: 1 } });
    expect(problems).toEqual([]);
    expect(Object.keys(values).sort()).toEqual(['age', 'name']);
  });

  it('reports a missing or null required field, and skips a missing or null optional one', () => {
    expect(validateAnswers(schema, {})).toEqual({ values: expect.anything(), problems: ['name is required'] });
    expect(validateAnswers(schema, { name: null }).problems).toEqual(['name is required']);
    expect(validateAnswers(schema, { name: undefined }).problems).toEqual(['name is required']);
    for (const age of [null, undefined]) {
      const { values, problems } = validateAnswers(schema, { name: 'Ada', age });
      expect(problems).toEqual([]);
      expect('age' in values).toBe(false);
    }
  });

  it('treats every field as optional when the schema has no required list', () => {
    const { values, problems } = validateAnswers({ type: 'object', properties: { a: { type: 'string' } } }, {});
    expect(problems).toEqual([]);
    expect(Object.keys(values)).toEqual([]);
  });

  it('still checks an optional field that was answered', () => {
    expect(validateAnswers(schema, { name: 'Ada', age: 'old' }).problems).toEqual(['age must be a number']);
  });

  it('reports every problem, in the order of the properties, and keeps the valid fields', () => {
    const many: FormSchema = {
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: 'boolean' },
        c: { type: 'number' },
        d: { type: 'string' }
      },
      required: ['a', 'b', 'c', 'd']
    };
    const { values, problems } = validateAnswers(many, { a: 1, b: true, d: 'ok' });
    expect(problems).toEqual(['a must be a string', 'c is required']);
    expect({ ...values }).toEqual({ b: true, d: 'ok' });
  });

  it('refuses a field with a type it does not support (only when answered)', () => {
    for (const field of [{ type: 'object' }, { enum: ['a'] }, { type: ['string', 'null'] }, {}] as JsonSchema[]) {
      refuses(field, 'a', 'f has an unsupported schema');
      expect(validateAnswers(form(field, false), {}).problems).toEqual([]);
    }
  });

  it('validates the schemas requireInput.elicit builds from ask fields', () => {
    const round = requireInput.elicit('Adjust', {
      reason: ask.enum({ discount: 'A discount', error: 'A billing error' }, 'Why?'),
      amount: ask.number('Amount').min(0.01).max(120),
      tags: ask.multiSelect(['vip', 'late'], 'Tags').maxItems(1).optional(),
      notify: ask.boolean('Notify the customer')
    });
    const schema = round.requests[0].schema!;
    expect(validateAnswers(schema, { reason: 'error', amount: 12.5, notify: false, tags: ['vip'] }).problems).toEqual([]);
    expect(validateAnswers(schema, { reason: 'A billing error', amount: 0, tags: ['vip', 'late'] }).problems).toEqual([
      'reason must be one of discount, error',
      'amount must be at least 0.01',
      'tags allows at most 1 choices',
      'notify is required'
    ]);
  });
});

describe('validateAnswers: prototype keys and inherited properties', () => {
  it('never reads __proto__ or constructor from the answer, even as own properties built by JSON.parse', () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"string"},"prototype":{"type":"string"},"name":{"type":"string"}},"required":["__proto__","constructor","prototype","name"]}'
    ) as FormSchema;
    const content = JSON.parse('{"__proto__":"x","constructor":"y","prototype":"z","name":"Ada"}') as unknown;
    expect(Object.keys(content as object)).toEqual(['__proto__', 'constructor', 'prototype', 'name']);
    const { values, problems } = validateAnswers(schema, content);
    expect(problems).toEqual(['__proto__ is required', 'constructor is required', 'prototype is required']);
    expect(Object.getPrototypeOf(values)).toBeNull();
    expect(Object.keys(values)).toEqual(['name']);
    expect(Object.prototype.hasOwnProperty.call(values, '__proto__')).toBe(false);
  });

  it('ignores a __proto__ object in the answer and pollutes nothing', () => {
    const schema: FormSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
    const content = JSON.parse('{"__proto__":{"name":"evil","polluted":true},"constructor":{"prototype":{"polluted":true}}}') as unknown;
    const { values, problems } = validateAnswers(schema, content);
    expect(problems).toEqual(['name is required']);
    expect(Object.keys(values)).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((values as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads own properties only: a value inherited through the prototype chain is missing', () => {
    const schema: FormSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
    const content = Object.create({ name: 'inherited' }) as object;
    expect(validateAnswers(schema, content).problems).toEqual(['name is required']);
  });

  it('does not mistake Object.prototype members for answers', () => {
    const schema: FormSchema = {
      type: 'object',
      properties: { toString: { type: 'string' }, hasOwnProperty: { type: 'string' }, valueOf: { type: 'string' } },
      required: ['toString', 'hasOwnProperty']
    };
    expect(validateAnswers(schema, {}).problems).toEqual(['toString is required', 'hasOwnProperty is required']);
  });

  it('is not fooled by an answer that shadows hasOwnProperty', () => {
    const schema: FormSchema = {
      type: 'object',
      properties: { name: { type: 'string' }, hasOwnProperty: { type: 'string' } },
      required: ['name']
    };
    const content = JSON.parse('{"hasOwnProperty":"shadow","name":"Ada"}') as unknown;
    const { values, problems } = validateAnswers(schema, content);
    expect(problems).toEqual([]);
    expect({ ...values }).toEqual({ name: 'Ada', hasOwnProperty: 'shadow' });
  });

  it('accepts a null-prototype answer', () => {
    const schema: FormSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
    const content = Object.assign(Object.create(null) as object, { name: 'Ada' });
    expect(validateAnswers(schema, content).problems).toEqual([]);
  });
});

describe('validateAnswers: strings', () => {
  it('accepts a string, including the empty string when no minLength is set', () => {
    accepts({ type: 'string' }, 'hello');
    accepts({ type: 'string' }, '');
  });

  it.each([[42], [true], [['a']], [{ a: 1 }]])('refuses %p for a string field', (value) => {
    refuses({ type: 'string' }, value, 'f must be a string');
  });

  it('enforces minLength and maxLength, bounds included', () => {
    const field = { type: 'string', minLength: 2, maxLength: 4 };
    refuses(field, 'a', 'f must be at least 2 characters');
    accepts(field, 'ab');
    accepts(field, 'abcd');
    refuses(field, 'abcde', 'f must be at most 4 characters');
  });

  it('refuses the empty string for a required field with minLength 1 (an empty answer is not "missing")', () => {
    refuses({ type: 'string', minLength: 1 }, '', 'f must be at least 1 characters');
  });

  // JSON Schema counts a string's length in characters (Unicode code points, RFC 8259), as the
  // client's validator does; `value.length` counts UTF-16 code units, so one emoji was "2 characters".
  it('counts length in characters (code points), as JSON Schema does, not UTF-16 code units', () => {
    accepts({ type: 'string', maxLength: 1 }, '😀');
    refuses({ type: 'string', minLength: 2 }, '😀', 'f must be at least 2 characters');
  });

  it('accepts only enum values', () => {
    const field = { type: 'string', enum: ['red', 'green'] };
    accepts(field, 'green');
    refuses(field, 'blue', 'f must be one of red, green');
    refuses(field, 'Red', 'f must be one of red, green');
    refuses(field, 1, 'f must be a string');
  });

  it('accepts the const of a titled oneOf option, never its title', () => {
    const field = {
      type: 'string',
      oneOf: [
        { const: 'lo', title: 'Low' },
        { const: 'hi', title: 'High' }
      ]
    };
    accepts(field, 'hi');
    refuses(field, 'High', 'f must be one of lo, hi');
  });

  it('accepts the const of a titled anyOf option', () => {
    const field = { type: 'string', anyOf: [{ const: 'a', title: 'A' }] };
    accepts(field, 'a');
    refuses(field, 'b', 'f must be one of a');
  });

  it('accepts enum values, not the deprecated enumNames', () => {
    const field = { type: 'string', enum: ['a', 'b'], enumNames: ['Alpha', 'Beta'] };
    accepts(field, 'a');
    refuses(field, 'Alpha', 'f must be one of a, b');
  });

  describe('format email', () => {
    const field = { type: 'string', format: 'email' };
    it.each(['ada@example.com', 'a.b+c@mail.example.org'])('accepts %p', (value) => accepts(field, value));
    it.each(['ada', 'ada@example', '@example.com', 'ada@', 'a da@example.com', 'ada@@example.com', ''])('refuses %p', (value) =>
      refuses(field, value, 'f must be a valid email')
    );
  });

  describe('format uri', () => {
    const field = { type: 'string', format: 'uri' };
    it.each(['https://example.com/a?b=c', 'mailto:ada@example.com', 'urn:isbn:0451450523'])('accepts %p', (value) => accepts(field, value));
    it.each(['example.com', '/relative/path', 'not a uri', ''])('refuses %p', (value) => refuses(field, value, 'f must be a valid uri'));
  });

  describe('format date', () => {
    const field = { type: 'string', format: 'date' };
    it.each(['2024-02-29', '1999-12-31', '2024-01-01'])('accepts %p', (value) => accepts(field, value));
    it.each(['2024-13-01', '2024-00-10', '2024-01-32', '2024-1-1', '24-01-01', '2024-01-01T10:00:00Z', 'yesterday', ''])(
      'refuses %p',
      (value) => refuses(field, value, 'f must be a valid date')
    );
    // Date.parse rolls a day past the end of its month over into the next month: such days are refused.
    it.each(['2024-02-30', '2023-02-29', '2024-04-31'])('refuses the calendar-invalid %p', (value) =>
      refuses(field, value, 'f must be a valid date')
    );
  });

  describe('format date-time', () => {
    const field = { type: 'string', format: 'date-time' };
    it.each(['2024-01-01T10:00:00Z', '2024-01-01T10:00:00.123Z', '2024-01-01T10:00:00+01:00'])('accepts %p', (value) =>
      accepts(field, value)
    );
    it.each(['2024-01-01', '2024-01-01T', '2024-01-01Tnoon', '2024-01-01T25:00:00Z', '10:00:00', 'now', ''])('refuses %p', (value) =>
      refuses(field, value, 'f must be a valid date-time')
    );
  });

  it('does not enforce a format it does not know', () => {
    accepts({ type: 'string', format: 'hostname' }, 'not a host name!');
  });

  it('checks the enum first, then the length, then the format', () => {
    refuses({ type: 'string', enum: ['x@y.z'], maxLength: 1, format: 'email' }, 'nope', 'f must be one of x@y.z');
    refuses({ type: 'string', maxLength: 3, format: 'email' }, 'ada@example.com', 'f must be at most 3 characters');
  });
});

describe('validateAnswers: numbers and integers', () => {
  it('accepts numbers within inclusive bounds', () => {
    const field = { type: 'number', minimum: 0.5, maximum: 10 };
    accepts(field, 0.5);
    accepts(field, 7.25);
    accepts(field, 10);
    refuses(field, 0.49, 'f must be at least 0.5');
    refuses(field, 10.01, 'f must be at most 10');
  });

  it('accepts any finite number when no bounds are set, zero and negatives included', () => {
    accepts({ type: 'number' }, 0);
    accepts({ type: 'number' }, -1e9);
  });

  it.each([
    ['type number', 'number'],
    ['type integer', 'integer']
  ])('%s: refuses non-finite numbers and non-numbers', (_label, type) => {
    for (const value of [NaN, Infinity, -Infinity, '5', true, [1], { n: 1 }]) refuses({ type }, value, 'f must be a number');
  });

  it('accepts integers (5.0 is an integer) and refuses fractions', () => {
    const field = { type: 'integer', minimum: 1, maximum: 3 };
    accepts(field, 1);
    accepts(field, 3.0);
    refuses(field, 2.5, 'f must be a whole number');
    refuses(field, 0, 'f must be at least 1');
    refuses(field, 4, 'f must be at most 3');
  });

  it('reports a fraction as "not an integer" before the bounds', () => {
    refuses({ type: 'integer', minimum: 10 }, 0.5, 'f must be a whole number');
  });
});

describe('validateAnswers: booleans', () => {
  it('accepts true and false', () => {
    accepts({ type: 'boolean' }, true);
    accepts({ type: 'boolean' }, false);
  });

  it('keeps false (a falsy answer is not "missing")', () => {
    const { values, problems } = validateAnswers(form({ type: 'boolean' }), { f: false });
    expect(problems).toEqual([]);
    expect(values.f).toBe(false);
  });

  it.each([['true'], [1], [0], [''], [[true]]])('refuses %p', (value) => {
    refuses({ type: 'boolean' }, value, 'f must be true or false');
  });
});

describe('validateAnswers: multi-select lists', () => {
  const field = { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 };

  it('accepts offered values within minItems and maxItems', () => {
    accepts(field, ['a']);
    accepts(field, ['c', 'a']);
  });

  it('refuses a value that is not a list', () => {
    refuses(field, 'a', 'f must be a list');
    refuses(field, { 0: 'a', length: 1 }, 'f must be a list');
  });

  it('refuses values not offered, and non-string entries, naming them', () => {
    refuses(field, ['a', 'z'], 'f has values not offered: z');
    refuses(field, ['a', 1, null], 'f has values not offered: 1, null');
  });

  it('refuses a value listed twice', () => {
    refuses(field, ['a', 'a'], 'f lists a value twice');
  });

  it('enforces minItems and maxItems, bounds included', () => {
    refuses(field, [], 'f needs at least 1 choices');
    refuses(field, ['a', 'b', 'c'], 'f allows at most 2 choices');
  });

  it('accepts an empty list when no minItems is set (an empty list is an answer, not "missing")', () => {
    accepts({ type: 'array', items: { type: 'string', enum: ['a'] } }, []);
  });

  it('accepts the consts of titled anyOf items, never their titles', () => {
    const titled = {
      type: 'array',
      items: {
        anyOf: [
          { const: 'x', title: 'Ex' },
          { const: 'y', title: 'Why' }
        ]
      }
    };
    accepts(titled, ['y', 'x']);
    refuses(titled, ['Ex'], 'f has values not offered: Ex');
  });

  it('accepts any strings when the items offer no values, but still only strings', () => {
    accepts({ type: 'array' }, ['anything', 'else']);
    accepts({ type: 'array', items: { type: 'string' } }, ['free']);
    refuses({ type: 'array' }, [1], 'f has values not offered: 1');
  });

  it('checks offered values first, then duplicates, then the counts', () => {
    refuses(field, ['z', 'z', 'z'], 'f has values not offered: z, z, z');
    refuses(field, ['a', 'a', 'a'], 'f lists a value twice');
  });
});
