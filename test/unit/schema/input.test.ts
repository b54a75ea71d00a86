import { Type } from 'class-transformer';
import { IsArray, IsEmail, IsEnum, IsInt, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { Action, FusionApp, Input, JSONSchema, ToolProvider } from '../../../src';

enum Status {
  Open = 'open',
  Paid = 'paid'
}

class Line {
  @IsString() sku!: string;
  @IsInt() @Min(1) qty!: number;
}

class Address {
  @IsString() @Length(3, 10) zip!: string;
}

class OrderInput {
  @JSONSchema({ description: 'The customer id' })
  @IsInt()
  @Min(1)
  @Max(1000)
  customer!: number;
  @IsOptional() @IsEnum(Status) status?: Status;
  @IsOptional() @IsEmail() email?: string;
  @IsArray() @ValidateNested({ each: true }) @Type(() => Line) lines!: Line[];
  @ValidateNested() @Type(() => Address) address!: Address;
}

@ToolProvider()
class Orders {
  received: unknown[] = [];
  @Action('orders.place', { description: 'Place an order' })
  place(@Input() input: OrderInput) {
    return { ok: true, isInstance: input instanceof OrderInput, lines: input.lines.length };
  }
  @Action('orders.none', { description: 'No input' })
  none() {
    return 'none';
  }
}

const valid = { customer: 7, lines: [{ sku: 'a', qty: 1 }], address: { zip: '12345' } };

describe('input schema and validation', () => {
  const app = FusionApp.create({ tools: [Orders] });
  afterAll(() => app.close());

  it('lists the JSON Schema of the input class: nested classes, arrays, optional fields, enums, bounds, lengths, formats, descriptions', () => {
    const schema = app.listTools()[0].inputSchema as Record<string, any>;
    expect(schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['customer', 'lines', 'address'],
      properties: {
        customer: { type: 'integer', minimum: 1, maximum: 1000, description: 'The customer id' },
        status: { type: 'string', enum: ['open', 'paid'] },
        email: { type: 'string', format: 'email' },
        lines: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } }
          }
        },
        address: { type: 'object', additionalProperties: false, properties: { zip: { type: 'string', minLength: 3, maxLength: 10 } } }
      }
    });
    expect(JSON.stringify(schema)).not.toContain('$ref');
    expect(app.listTools()[1].inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });

  it('hands the handler an instance of the input class', async () => {
    const result = await app.callTool('orders.place', valid);
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ ok: true, isInstance: true, lines: 1 });
  });

  it('lists every violation by property path and never runs the handler', async () => {
    const spy = jest.spyOn(Orders.prototype, 'place');
    const result = await app.callTool('orders.place', {
      customer: 0,
      status: 'closed',
      email: 'nope',
      lines: [{ sku: 1, qty: 0 }],
      address: { zip: 'x' },
      extra: true
    });
    expect(spy).not.toHaveBeenCalled();
    expect(result.isError).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain('Invalid arguments for tool orders.place');
    for (const path of ['customer', 'status', 'email', 'lines.0.sku', 'lines.0.qty', 'address.zip', 'extra']) {
      expect(text).toContain(`- ${path}:`);
    }
    expect(text).toContain('property extra should not exist');
    spy.mockRestore();
  });

  it('refuses undeclared properties at any depth', async () => {
    const result = await app.callTool('orders.place', { ...valid, address: { zip: '12345', secret: 1 } });
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toContain('address.secret: property secret should not exist');
  });

  it('refuses prototype-polluting keys before any conversion', async () => {
    const args = JSON.parse('{"customer":1,"lines":[],"address":{"zip":"12345"},"__proto__":{"polluted":true}}');
    const result = await app.callTool('orders.place', args);
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toContain('__proto__: property name __proto__ is not allowed');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('does not coerce types', async () => {
    const result = await app.callTool('orders.place', { ...valid, customer: '7' });
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toContain('- customer:');
  });

  it('refuses arguments to a tool that takes none', async () => {
    expect((await app.callTool('orders.none', {})).content).toEqual([{ type: 'text', text: 'none' }]);
    const result = await app.callTool('orders.none', { x: 1 });
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toContain('property x should not exist (this tool takes no arguments)');
  });
});

describe('schemas by class, not by name', () => {
  it('keeps two input classes with the same name apart, nested ones too', () => {
    const make = (field: string) => {
      class Inner {
        @IsString() [field]!: string;
      }
      class Query {
        @ValidateNested() @Type(() => Inner) inner!: Inner;
      }
      return Query;
    };
    const A = make('alpha');
    const B = make('beta');
    @ToolProvider()
    class Twins {
      @Action('twin.a', { description: 'a' }) a(@Input() _q: InstanceType<typeof A>) {}
      @Action('twin.b', { description: 'b' }) b(@Input() _q: InstanceType<typeof B>) {}
    }
    // Decorator metadata cannot see the parameter types of a factory-made class: set them as tsc would.
    Reflect.defineMetadata('design:paramtypes', [A], Twins.prototype, 'a');
    Reflect.defineMetadata('design:paramtypes', [B], Twins.prototype, 'b');
    const app = FusionApp.create({ tools: [Twins] });
    const [a, b] = app.listTools().map((t) => t.inputSchema as Record<string, any>);
    expect(Object.keys(a.properties.inner.properties)).toEqual(['alpha']);
    expect(Object.keys(b.properties.inner.properties)).toEqual(['beta']);
  });
});
