import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { connectTestClient } from '@mcpfusion/core/testing';
import { createApp } from '../src/app';

// Through a real SDK client: the protocol, not a mock of it.
describe('the starter over MCP', () => {
  test.each(['modern', 'legacy-http', 'legacy-memory'] as const)('lists and calls the tools (%s client, in-process)', async (era) => {
    const app = createApp();
    const { client, close } = await connectTestClient(app, { era });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['greet', 'notes.add', 'notes.clear', 'notes.import', 'notes.list']);
      const result = await client.callTool({ name: 'greet', arguments: { name: 'Grace', greeting: 'Hi' } });
      expect(result.content).toEqual([{ type: 'text', text: 'Hi, Grace!' }]);
    } finally {
      await close();
      await app.close();
    }
  });

  test('serves Streamable HTTP on a real socket, as main.ts does', async () => {
    const app = createApp();
    const { url } = await app.listen({ transport: 'http', port: 0, handleSignals: false });
    const client = new Client({ name: 'starter-test', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(url!));
      await client.callTool({ name: 'notes.add', arguments: { text: 'over http' } });
      const listed = await client.callTool({ name: 'notes.list', arguments: {} });
      expect(listed.structuredContent).toEqual({ notes: [{ id: 1, text: 'over http' }] });
    } finally {
      await client.close();
      await app.close();
    }
  });
});
