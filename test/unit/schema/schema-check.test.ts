import { Type } from 'class-transformer';
import { IsInt, IsString, ValidateNested } from 'class-validator';
import { ConfigurationError, JSONSchema } from '../../../src';
import { SchemaCatalog } from '../../../src/schema/json-schema';
import { compileSchemaCheck } from '../../../src/schema/schema-check';

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

class Outer {
  @ValidateNested() @Type(() => Inner) inner!: Inner;
}

describe('the listed schema check (compiled once, at startup)', () => {
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

  it('refuses asynchronous schemas (Ajv would answer a promise, which reads as valid)', () => {
    expect(() => compileSchemaCheck({ $async: true, type: 'object' }, 'Tools.async')).toThrow(/\$async/);
  });
});
