import { checkValue, choicesOf, parseValue, ValueError } from '../../../packages/cli/src/schema-values';

/** What a value typed at the terminal becomes, read against its property's JSON Schema. */
describe('parseValue', () => {
  it('reads integers and numbers, refusing text and checking the bounds', () => {
    expect(parseValue('id', { type: 'integer', minimum: 1 }, '3')).toBe(3);
    expect(parseValue('rate', { type: 'number' }, ' 2.5 ')).toBe(2.5);
    expect(() => parseValue('id', { type: 'integer' }, 'three')).toThrow('id: "three" is not a number');
    expect(() => parseValue('id', { type: 'integer' }, '')).toThrow('id: "" is not a number');
    expect(() => parseValue('id', { type: 'integer' }, '2.5')).toThrow('id: 2.5 is not an integer');
    expect(() => parseValue('id', { type: 'integer', minimum: 1 }, '0')).toThrow('id: 0 is less than the minimum 1');
    expect(() => parseValue('limit', { type: 'integer', maximum: 100 }, '101')).toThrow('limit: 101 is more than the maximum 100');
    expect(() => parseValue('x', { type: 'number', exclusiveMinimum: 0 }, '0')).toThrow('x: 0 must be more than 0');
  });

  it('reads booleans from true/false, yes/no, y/n, 1/0', () => {
    for (const word of ['true', 'yes', 'Y', '1', 'on']) expect(parseValue('confirm', { type: 'boolean' }, word)).toBe(true);
    for (const word of ['false', 'no', 'N', '0', 'off']) expect(parseValue('confirm', { type: 'boolean' }, word)).toBe(false);
    expect(() => parseValue('confirm', { type: 'boolean' }, 'maybe')).toThrow(
      'confirm: "maybe" is not a boolean (use true/false or yes/no)'
    );
  });

  it('reads an enum by value or by title, and names the choices when none fits', () => {
    expect(parseValue('status', { type: 'string', enum: ['open', 'paid'] }, 'paid')).toBe('paid');
    const titled = {
      type: 'string',
      oneOf: [
        { const: 'dc', title: 'Discount' },
        { const: 'ge', title: 'Goodwill' }
      ]
    };
    expect(parseValue('reason', titled, 'Goodwill')).toBe('ge');
    expect(parseValue('reason', titled, 'dc')).toBe('dc');
    expect(() => parseValue('status', { enum: ['open', 'paid'] }, 'lost')).toThrow('status: "lost" is not one of open, paid');
    expect(choicesOf({ anyOf: [{ const: 1, title: 'one' }] })).toEqual([{ value: 1, title: 'one' }]);
  });

  it('reads arrays as JSON or comma-separated, each item read against items', () => {
    const ids = { type: 'array', items: { type: 'integer' } };
    expect(parseValue('ids', ids, '1,2, 3')).toEqual([1, 2, 3]);
    expect(parseValue('ids', ids, '[4,5]')).toEqual([4, 5]);
    expect(parseValue('ids', ids, '')).toEqual([]);
    expect(() => parseValue('ids', ids, '1,x')).toThrow('ids[1]: "x" is not a number');
    expect(() => parseValue('ids', { ...ids, maxItems: 1 }, '1,2')).toThrow('ids: takes at most 1 item(s)');
    expect(() => parseValue('ids', ids, '[1,')).toThrow('ids: "[1," is not a JSON array');
  });

  it('reads objects as JSON objects only', () => {
    expect(parseValue('filter', { type: 'object' }, '{"a":1}')).toEqual({ a: 1 });
    expect(() => parseValue('filter', { type: 'object' }, '[1]')).toThrow('filter: "[1]" is not a JSON object');
  });

  it('keeps strings as typed and checks lengths, patterns and formats', () => {
    expect(parseValue('name', { type: 'string' }, ' 007 ')).toBe(' 007 ');
    expect(() => parseValue('name', { type: 'string', minLength: 2 }, 'a')).toThrow('name: needs at least 2 characters');
    expect(() => parseValue('name', { type: 'string', maxLength: 3 }, 'abcd')).toThrow('name: takes at most 3 characters');
    expect(() => parseValue('code', { type: 'string', pattern: '^[A-Z]{3}$' }, 'eur')).toThrow(
      'code: "eur" does not match the pattern ^[A-Z]{3}$'
    );
    expect(parseValue('mail', { type: 'string', format: 'email' }, 'ap@globex.example')).toBe('ap@globex.example');
    expect(() => parseValue('mail', { type: 'string', format: 'email' }, 'ap@')).toThrow('mail: "ap@" is not an email address');
    expect(() => parseValue('site', { type: 'string', format: 'uri' }, 'globex')).toThrow('site: "globex" is not a URI');
    expect(parseValue('day', { type: 'string', format: 'date' }, '2026-07-28')).toBe('2026-07-28');
    expect(() => parseValue('day', { type: 'string', format: 'date' }, '28/07/2026')).toThrow(
      'day: "28/07/2026" is not a date (YYYY-MM-DD)'
    );
    expect(() => parseValue('at', { type: 'string', format: 'date-time' }, '2026-07-28')).toThrow('is not a date-time');
  });

  it('an untyped property takes JSON when it reads as JSON, else the text', () => {
    expect(parseValue('x', {}, '3')).toBe(3);
    expect(parseValue('x', {}, 'three')).toBe('three');
  });

  it('a union type takes what fits: a number, else the text', () => {
    expect(parseValue('x', { type: ['integer', 'string'] }, '3')).toBe(3);
    expect(parseValue('x', { type: ['integer', 'string'] }, 'three')).toBe('three');
  });
});

describe('checkValue (values given as JSON)', () => {
  it('names the property and the type that was expected', () => {
    expect(() => checkValue('id', { type: 'integer' }, '3')).toThrow(new ValueError('id', '"3" is not an integer'));
    expect(() => checkValue('ok', { type: 'boolean' }, 1)).toThrow('ok: 1 is not a boolean');
    expect(() => checkValue('tags', { type: 'array', items: { type: 'string' } }, ['a', 2])).toThrow('tags[1]: 2 is not a string');
  });

  it('an invalid pattern from the wire checks nothing (the server checks again)', () => {
    expect(() => checkValue('x', { type: 'string', pattern: '(' }, 'anything')).not.toThrow();
  });
});
