import { IsInt, IsString, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { inject, injectable } from 'tsyringe';
import { Action, cappedList, FusionApp, ToolProvider, type PresentationContext, type Presenter } from '../../../src';

class OwnerView {
  @IsString() name!: string;
}

class AccountView {
  @IsInt() id!: number;
  @IsString() label!: string;
  @ValidateNested() @Type(() => OwnerView) owner!: OwnerView;
}

const HINT = Symbol('hint');

@injectable()
class GuidancePresenter implements Presenter {
  constructor(@inject(HINT) private readonly hint: string) {}
  present(value: unknown, ctx: PresentationContext) {
    return ctx.shape(value, [this.hint]);
  }
}

@ToolProvider()
class Shapes {
  @Action('text', { description: 'd' }) text() {
    return 'hello';
  }
  @Action('raw', { description: 'd' }) raw() {
    return { content: [{ type: 'text', text: 'as is' }], isError: false };
  }
  @Action('object', { description: 'd' }) object() {
    return { a: 1 };
  }
  @Action('array', { description: 'd' }) array() {
    return [1, 2];
  }
  @Action('nothing', { description: 'd' }) nothing() {}
  @Action('throws', { description: 'd' }) throws() {
    throw new Error('it broke');
  }
  @Action('allowlisted', { description: 'd', output: AccountView }) allowlisted() {
    return { id: 1, label: 'main', passwordHash: 'x', owner: { name: 'Ada', ssn: '123' } };
  }
  @Action('many', { description: 'd', output: [AccountView], presenter: cappedList({ max: 2, guidance: 'Call account.get with an id.' }) })
  many() {
    return [1, 2, 3, 4, 5].map((id) => ({ id, label: `#${id}`, secret: 's', owner: { name: 'o' } }));
  }
  @Action('guided', { description: 'd', presenter: GuidancePresenter }) guided() {
    return 'done';
  }
}

describe('presenters', () => {
  const app = FusionApp.create({ tools: [Shapes], providers: [{ provide: HINT, useValue: 'Next: call report.generate.' }] });
  afterAll(() => app.close());

  it('shapes strings, tool results, objects, arrays and nothing by default', async () => {
    expect(await app.callTool('text')).toEqual({ content: [{ type: 'text', text: 'hello' }] });
    expect(await app.callTool('raw')).toEqual({ content: [{ type: 'text', text: 'as is' }], isError: false });
    expect(await app.callTool('object')).toEqual({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } });
    expect(await app.callTool('array')).toEqual({
      content: [{ type: 'text', text: '{"items":[1,2]}' }],
      structuredContent: { items: [1, 2] }
    });
    expect(await app.callTool('nothing')).toEqual({ content: [] });
  });

  it('turns a thrown error into an isError result with its message and no stack', async () => {
    const result = await app.callTool('throws');
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'it broke' }] });
  });

  it('lists the output schema and keeps only declared fields (allowlist), nested too', async () => {
    const listing = app.listTools().find((t) => t.name === 'allowlisted')!;
    expect(listing.outputSchema).toMatchObject({ type: 'object', properties: { id: {}, label: {}, owner: { properties: { name: {} } } } });
    const result = await app.callTool('allowlisted');
    expect(result.structuredContent).toEqual({ id: 1, label: 'main', owner: { name: 'Ada' } });
    expect(JSON.stringify(result)).not.toMatch(/passwordHash|ssn/);
  });

  it('caps a collection with a note of how many were left out and guidance', async () => {
    const listing = app.listTools().find((t) => t.name === 'many')!;
    expect(listing.outputSchema).toMatchObject({ properties: { items: { type: 'array' }, total: {}, omitted: {} } });
    const result = await app.callTool('many');
    expect(result.structuredContent).toEqual({
      items: [
        { id: 1, label: '#1', owner: { name: 'o' } },
        { id: 2, label: '#2', owner: { name: 'o' } }
      ],
      total: 5,
      omitted: 3
    });
    const texts = result.content.map((c) => (c as { text: string }).text);
    expect(texts).toContain('3 more not shown (5 in all); narrow the query to see them.');
    expect(texts).toContain('Call account.get with an id.');
    expect(JSON.stringify(result)).not.toContain('secret');
  });

  it('resolves presenter classes from the container', async () => {
    const result = await app.callTool('guided');
    expect(result.content).toEqual([
      { type: 'text', text: 'done' },
      { type: 'text', text: 'Next: call report.generate.' }
    ]);
  });
});
