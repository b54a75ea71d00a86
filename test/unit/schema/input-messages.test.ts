import { Type } from 'class-transformer';
import {
  IsInt,
  IsString,
  Matches,
  Min,
  Validate,
  ValidateNested,
  type ValidatorConstraintInterface,
  ValidatorConstraint
} from 'class-validator';
import { Action, FusionApp, Input, ToolProvider } from '../../../src';

/** A rule no JSON Schema states: only class-validator can say what is wrong. */
@ValidatorConstraint({ name: 'even' })
class Even implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'number' && value % 2 === 0;
  }
  defaultMessage(): string {
    return 'pairs must be an even number';
  }
}

class Inner {
  @IsString() label!: string;
}

class Query {
  @IsInt() @Min(1) id!: number;
  @IsString() @Matches(/^[A-Z]{3}$/, { message: 'currency must be three capital letters (EUR)' }) currency!: string;
  @IsInt() @Validate(Even) pairs!: number;
  @ValidateNested() @Type(() => Inner) inner!: Inner;
}

@ToolProvider()
class Tools {
  @Action('q.run', { description: 'Run' })
  run(@Input() q: Query) {
    return q.id;
  }
}

const VALID = { id: 1, currency: 'EUR', pairs: 2, inner: { label: 'x' } };

/** The lines of an invalid-arguments result, after its heading. */
async function problems(app: FusionApp, args: Record<string, unknown>): Promise<string[]> {
  const result = await app.callTool('q.run', args);
  expect(result.isError).toBe(true);
  return (result.content[0] as { text: string }).text.split('\n').slice(1);
}

describe('messages that say what is wrong, one line per problem', () => {
  const app = FusionApp.create({ tools: [Tools] });
  afterAll(() => app.close());

  it('a missing required property says it is required, and nothing else about it', async () => {
    expect(await problems(app, { currency: 'EUR', pairs: 2, inner: { label: 'x' } })).toEqual(['- id: id is required']);
    expect(await problems(app, {})).toEqual([
      '- id: id is required',
      '- currency: currency is required',
      '- pairs: pairs is required',
      '- inner: inner is required'
    ]);
  });

  it('a wrong type says the type expected and the type given', async () => {
    expect(await problems(app, { ...VALID, id: '1' })).toEqual(['- id: id must be an integer, not a string']);
    expect(await problems(app, { ...VALID, id: 1.5 })).toEqual(['- id: id must be a whole number, not 1.5']);
    expect(await problems(app, { ...VALID, inner: { label: 3 } })).toEqual(['- inner.label: label must be a string, not an integer']);
    expect(await problems(app, { ...VALID, inner: [] })).toEqual(['- inner: inner must be an object, not an array']);
  });

  it("a value constraint keeps class-validator's words, the application's own message included", async () => {
    expect(await problems(app, { ...VALID, id: 0 })).toEqual(['- id: id must not be less than 1']);
    expect(await problems(app, { ...VALID, currency: 'euro' })).toEqual(['- currency: currency must be three capital letters (EUR)']);
  });

  it("class-validator's message for what the schema cannot express, next to the schema's own", async () => {
    expect(await problems(app, { ...VALID, pairs: 3 })).toEqual(['- pairs: pairs must be an even number']);
    expect(await problems(app, { ...VALID, id: 'x', pairs: 3 })).toEqual([
      '- id: id must be an integer, not a string',
      '- pairs: pairs must be an even number'
    ]);
  });

  it('an undeclared property is named once', async () => {
    expect(await problems(app, { ...VALID, extra: 1 })).toEqual(['- extra: property extra should not exist']);
  });
});
