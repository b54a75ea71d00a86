import { emitToolTypes, typeOf, typeStem } from '../../../packages/cli/src/schema-types';
import { parseCommandLine } from '../../../packages/cli/src/options';

const t = (schema: object) => typeOf(schema as never, schema as never, 0, new Set());

describe('the JSON Schema → TypeScript emitter of mcpfusion types', () => {
  it('names types after tools', () => {
    expect(typeStem('billing.refund')).toBe('BillingRefund');
    expect(typeStem('reports_rebuild-now')).toBe('ReportsRebuildNow');
    expect(typeStem('3d.render')).toBe('Tool3dRender');
  });

  it('emits primitives, enums, consts, unions, arrays and tuples', () => {
    expect(t({ type: 'string' })).toBe('string');
    expect(t({ type: 'integer' })).toBe('number');
    expect(t({ type: ['string', 'null'] })).toBe('string | null');
    expect(t({ enum: ['open', 'paid', 'a"b'] })).toBe('"open" | "paid" | "a\\"b"');
    expect(t({ const: 3 })).toBe('3');
    expect(t({ anyOf: [{ type: 'string' }, { type: 'number' }] })).toBe('string | number');
    expect(t({ oneOf: [{ const: 'a' }, { const: 'b' }] })).toBe('"a" | "b"');
    expect(t({ type: 'array', items: { type: ['string', 'number'] } })).toBe('(string | number)[]');
    expect(t({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'boolean' }] })).toBe('[string, boolean]');
    expect(t({ type: 'array' })).toBe('unknown[]');
    expect(t({})).toBe('unknown');
    expect(t({ anyOf: [{ type: 'string' }, {}] })).toBe('unknown');
  });

  it('emits objects: required and optional properties, descriptions, quoted keys, additionalProperties', () => {
    expect(
      t({
        type: 'object',
        properties: { id: { type: 'integer', description: 'The invoice id' }, 'x-note': { type: 'string' } },
        required: ['id']
      })
    ).toBe('{\n  /** The invoice id */\n  id: number;\n  "x-note"?: string;\n}');
    expect(t({ type: 'object', additionalProperties: { type: 'number' } })).toBe('{\n  [key: string]: number;\n}');
    expect(t({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: true })).toBe(
      '{\n  a: string;\n  [key: string]: unknown;\n}'
    );
    expect(t({ type: 'object' })).toBe('Record<string, never>');
    expect(t({ type: 'array', items: { type: ['object', 'null'], properties: { a: { type: 'string' } } } })).toBe(
      '({\n  a?: string;\n} | null)[]'
    );
  });

  it('resolves local $refs and stops at a cycle', () => {
    const schema = { $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } }, $ref: '#/$defs/Node' };
    expect(t(schema)).toBe('{\n  next?: unknown;\n}');
    expect(t({ $ref: 'https://example.com/schema' })).toBe('unknown');
  });

  it('emits each tool as Input and Output with a ToolMap, unique names, unknown output without an outputSchema', () => {
    const text = emitToolTypes(
      [
        {
          name: 'b.x',
          inputSchema: { type: 'object', properties: {} },
          outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] }
        },
        { name: 'b_x', description: 'Same stem', inputSchema: { type: 'object' } }
      ],
      'Tools of test 1.0.0.'
    );
    expect(text).toContain('export type BX2Input = Record<string, never>;');
    expect(text).toContain('/** b_x lists no outputSchema: its results carry content only. */\nexport type BX2Output = unknown;');
    expect(text).toContain('export type BXOutput = {\n  ok: boolean;\n};');
    expect(text).toContain(
      'export interface ToolMap {\n  "b.x": { input: BXInput; output: BXOutput };\n  b_x: { input: BX2Input; output: BX2Output };\n}'
    );
  });

  it('reads types <target> [--out file] and refuses what belongs to other commands', () => {
    expect(parseCommandLine(['types', 'http://127.0.0.1:3000/mcp', '--out', 'tools.ts'], {})).toEqual({
      command: 'types',
      target: { kind: 'http', url: new URL('http://127.0.0.1:3000/mcp') },
      era: undefined,
      headers: {},
      out: 'tools.ts'
    });
    expect(() => parseCommandLine(['list', 'http://127.0.0.1:3000/mcp', '--out', 'x.ts'], {})).toThrow('--out belongs to types');
    expect(() => parseCommandLine(['types', 'http://127.0.0.1:3000/mcp', '--arg', 'a=1'], {})).toThrow(/types takes only/);
  });
});
