import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { IsString } from 'class-validator';
import { Action, FusionApp, Input, JSONSchema, ToolProvider } from '../../src';
import { modernPostHeaders } from '../helpers/raw-http';

class RegionInput {
  @JSONSchema({ description: 'Where to route', 'x-mcp-header': 'Region' } as never)
  @IsString()
  region!: string;
}

@ToolProvider()
class RoutedTools {
  @Action('routed', { description: 'Mirrors region into Mcp-Param-Region' })
  routed(@Input() input: RegionInput) {
    return `routed to ${input.region}`;
  }
}

/** SEP-2243: an argument declared with `x-mcp-header` must match its `Mcp-Param-*` header on 2026-07-28 HTTP. */
describe('x-mcp-header parameter headers', () => {
  it('lists the declaration, accepts a matching header, and refuses a mismatch with 400 / -32020', async () => {
    const app = FusionApp.create({ tools: [RoutedTools], logger: () => undefined }); // its refusals are asserted on the wire
    const { url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL };
    const client = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(url));
    const { tools } = await client.listTools();
    expect((tools[0].inputSchema.properties as Record<string, Record<string, unknown>>).region['x-mcp-header']).toBe('Region');
    // The SDK client mirrors the argument into the header itself.
    expect((await client.callTool({ name: 'routed', arguments: { region: 'eu' } })).content).toEqual([
      { type: 'text', text: 'routed to eu' }
    ]);
    await client.close();

    const res = await fetch(url, {
      method: 'POST',
      headers: modernPostHeaders('tools/call', 'routed', { 'mcp-param-region': 'us' }),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: {
          name: 'routed',
          arguments: { region: 'eu' },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }
          }
        }
      })
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32020);
    await app.close();
  });
});
