import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { IsString } from 'class-validator';
import { Action, FusionApp, Input, ToolProvider } from '../../src';
import { serveGateway } from '../../src/gateway/serve';

/**
 * `mcpfusion serve --tool-search` (`serveGateway({ toolSearch: true })`): the front lists the
 * search and call tools instead of the upstream's catalog; a found tool is called through them.
 */
class RefundInput {
  @IsString() invoice!: string;
}

@ToolProvider()
class Catalog {
  @Action('refund_invoice', { description: 'Refund a paid invoice to the customer' })
  refund(@Input() { invoice }: RefundInput) {
    return `refunded ${invoice}`;
  }

  @Action('list_reports', { description: 'List the monthly revenue reports' })
  reports() {
    return 'march, april';
  }
}

const textOf = (result: { content?: unknown }) =>
  ((result.content ?? []) as Array<{ text?: string }>).map((block) => block.text ?? '').join('\n');

describe.each([
  ['2025', 'legacy'],
  ['2026', { pin: '2026-07-28' }]
] as const)('serve --tool-search, a %s-era front client', (_era, mode) => {
  it('lists search_tools and call_tool, finds a tool by what it does and calls it', async () => {
    const upstream = FusionApp.create({ name: 'upstream', version: '1.0.0', tools: [Catalog], logger: () => undefined });
    const { url } = await upstream.listen({ transport: 'http', port: 0, handleSignals: false });
    const served = await serveGateway({ target: url!, namespace: 'up', port: 0, toolSearch: true, env: {}, log: () => undefined });
    const client = new Client({ name: 'front', version: '1.0.0' }, { versionNegotiation: { mode } });
    try {
      await client.connect(new StreamableHTTPClientTransport(served.url));
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['call_tool', 'search_tools']);
      const found = await client.callTool({ name: 'search_tools', arguments: { query: 'refund an invoice' } });
      expect(textOf(found)).toContain('up.refund_invoice');
      const called = await client.callTool({
        name: 'call_tool',
        arguments: { name: 'up.refund_invoice', arguments: { invoice: 'INV-7' } }
      });
      expect(textOf(called)).toBe('refunded INV-7');
    } finally {
      await client.close();
      await served.app.close();
      await upstream.close();
    }
  }, 30_000);
});
