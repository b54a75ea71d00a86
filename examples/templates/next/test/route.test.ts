import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { DELETE, GET, POST } from '../app/mcp/route';
import { mcpEndpoint } from '../lib/mcp-handler';

/** The route's handlers by method, as Next calls them: each gets the web Request. */
const route: Record<string, (request: Request) => Promise<Response>> = { GET, POST, DELETE };

/** A fetch that hands the request to the route in-process (no server): what `next start` does per request. */
async function routeFetch(url: string | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(url, init);
  const handler = route[request.method];
  return handler ? handler(request) : new Response(null, { status: 405 });
}

// Real SDK clients of both eras through the route's exported handlers.
describe('app/mcp/route.ts', () => {
  after(() => mcpEndpoint(new Request('http://127.0.0.1/mcp')).close());

  for (const era of ['2026-07-28', '2025-11-25'] as const) {
    test(`a ${era} client lists, imports with progress and answers the clear question`, async () => {
      const client = new Client(
        { name: 'next-template-test', version: '1.0.0' },
        { capabilities: { elicitation: { form: {} } }, ...(era === '2026-07-28' ? { versionNegotiation: { mode: { pin: era } } } : {}) }
      );
      client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { confirm: true } }));
      await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/mcp'), { fetch: routeFetch }));
      try {
        assert.equal(client.getNegotiatedProtocolVersion(), era);
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((t) => t.name).sort(), ['greet', 'notes.add', 'notes.clear', 'notes.import', 'notes.list']);
        const progress: number[] = [];
        const imported = await client.callTool(
          { name: 'notes.import', arguments: { texts: ['x', 'y', 'z'] } },
          { onprogress: (p) => progress.push(p.progress) }
        );
        assert.deepEqual(imported.content, [{ type: 'text', text: 'Imported 3 notes.' }]);
        assert.deepEqual(progress, [1, 2, 3]);
        const cleared = await client.callTool({ name: 'notes.clear', arguments: {} });
        assert.deepEqual(cleared.content, [{ type: 'text', text: 'Deleted 3 notes.' }]);
      } finally {
        await client.close();
      }
    });
  }

  test('a request for another Host is refused', async () => {
    const response = await POST(
      new Request('http://127.0.0.1:3000/mcp', {
        method: 'POST',
        headers: { host: 'rebind.attacker.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{}'
      })
    );
    assert.equal(response.status, 403);
  });
});
