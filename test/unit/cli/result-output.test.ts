import { kindHints, table } from '../../../packages/cli/src/list-command';
import { formatResult } from '../../../packages/cli/src/result-output';

describe('formatResult', () => {
  it('shows text blocks as text and structured content as pretty JSON, once', () => {
    const structured = { id: 3, status: 'refunded' };
    expect(formatResult({ content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured })).toBe(
      JSON.stringify(structured, null, 2)
    );
    expect(formatResult({ content: [{ type: 'text', text: 'Refund cancelled' }] })).toBe('Refund cancelled');
    expect(formatResult({ content: [{ type: 'text', text: 'Note' }], structuredContent: [1] })).toBe('Note\n[\n  1\n]');
  });

  it('shows other blocks as one line each', () => {
    expect(
      formatResult({
        content: [
          { type: 'image', mimeType: 'image/png', data: 'AAAA' },
          { type: 'resource_link', uri: 'billing://invoices/3', name: 'invoice-3' },
          { type: 'resource', resource: { uri: 'billing://invoices/3', text: 'inline' } }
        ]
      })
    ).toBe('[image: image/png, 3 bytes]\n[link: billing://invoices/3 (invoice-3)]\ninline');
  });
});

describe('the listing', () => {
  const tool = (annotations: object, extra: object = {}) => ({
    name: 't',
    inputSchema: { type: 'object' as const },
    annotations,
    ...extra
  });
  it('reads the kind hints from annotations, _meta and execution', () => {
    expect(kindHints(tool({ readOnlyHint: true }))).toEqual(['read-only']);
    expect(kindHints(tool({}))).toEqual(['destructive']);
    expect(kindHints(tool({ destructiveHint: false }))).toEqual([]);
    expect(
      kindHints(tool({ destructiveHint: true }, { execution: { taskSupport: 'optional' }, _meta: { 'io.mcpfusion/interactive': true } }))
    ).toEqual(['destructive', 'interactive', 'task']);
  });

  it('aligns columns (the last one unpadded)', () => {
    const rows = [
      ['billing.refund', 'destructive'],
      ['x', '']
    ];
    expect(table(['NAME', 'KIND'], rows)).toBe(['NAME            KIND', 'billing.refund  destructive', 'x'].join('\n'));
  });
});
