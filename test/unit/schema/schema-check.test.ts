import { Type } from 'class-transformer';
import { IsInt, IsString, ValidateNested } from 'class-validator';
import { ConfigurationError, JSONSchema } from '../../../src';
import { SchemaCatalog } from '../../../src/schema/json-schema';
import { compileSchemaCheck, derivedSchemaCheck } from '../../../src/schema/schema-check';

class Generated {
  @IsInt() n!: number;
}

class TypoInOverride {
  @JSONSchema({ minimum: 'five' as unknown as number })
  @IsInt()
  n!: number;
}

class Inner {
  @JSONSchema({ maxLength: -1 })
  @IsString()
  s!: string;
}

class Described {
  @JSONSchema({ description: 'How many.', title: 'Count' })
  @IsInt()
  n!: number;
}

class Outer {
  @ValidateNested() @Type(() => Inner) inner!: Inner;
}

describe('the listed schema check (compiled once: at startup when hand-written, else on its first check)', () => {
  it('compiles what the framework derives without the meta-schema, and lists @IsInt as integer', () => {
    const catalog = new SchemaCatalog();
    expect(catalog.schemaOf(Generated).properties).toEqual({ n: { type: 'integer' } });
    const validate = catalog.validatorOf(Generated, 'Generated');
    expect(validate({ n: 2 }).value).toBeInstanceOf(Generated);
    expect(validate({ n: 1.5 }).violations?.[0]?.path).toBe('n');
  });

  it('checks hand-written @JSONSchema parts against the meta-schema: a typo is a startup error naming the member', () => {
    expect(() => new SchemaCatalog().validatorOf(TypoInOverride, 'Tools.typo')).toThrow(ConfigurationError);
    expect(() => new SchemaCatalog().validatorOf(TypoInOverride, 'Tools.typo')).toThrow(/Tools\.typo.*minimum/);
  });

  it('checks a class whose nested class carries the hand-written part', () => {
    expect(() => new SchemaCatalog().validatorOf(Outer, 'Tools.nested')).toThrow(/Tools\.nested.*maxLength/);
  });

  it('takes a description or title override for an annotation, not a hand-written part: the schema lists it and checks as derived', () => {
    const catalog = new SchemaCatalog();
    expect(catalog.schemaOf(Described).properties).toEqual({ n: { type: 'integer', description: 'How many.', title: 'Count' } });
    const validate = catalog.validatorOf(Described, 'Described');
    expect(validate({ n: 3 }).value).toBeInstanceOf(Described);
    expect(validate({ n: 'three' }).violations?.[0]?.path).toBe('n');
  });

  it('compiles a derived schema on its first check: a schema Ajv cannot compile is refused then, naming its owner', () => {
    const check = derivedSchemaCheck({ type: 'object', properties: { a: { $ref: '#/nowhere' } } }, 'tool t', 'output');
    expect(() => check({ a: 1 })).toThrow(/output schema of tool t is not a valid JSON Schema/);
    expect(derivedSchemaCheck({ type: 'object', required: ['a'] }, 'tool u')({})).toEqual([
      expect.objectContaining({ path: 'a', keyword: 'required' })
    ]);
  });

  it('refuses asynchronous schemas (Ajv would answer a promise, which reads as valid)', () => {
    expect(() => compileSchemaCheck({ $async: true, type: 'object' }, 'Tools.async')).toThrow(/\$async/);
  });
});
