import 'reflect-metadata';
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createApp } from '../src/app';
import { createServer } from '../src/server';

// Real SDK clients through the Hono app in-process (Hono's own fetch, no socket): both protocol eras.
describe('the MCP endpoint inside Hono', () => {
  const app = createApp({ importPaceMs: 0 });
  const { hono, mcp } = createServer(app);
  after(async () => {
    await mcp.close();
    await app.close();
  });

  for (const era of ['2026-07-28', '2025-11-25'] as const) {
    test(`a ${era} client lists, imports with progress and answers the clear question`, async () => {
      const client = new Client(
        { name: 'hono-template-test', version: '1.0.0' },
        { capabilities: { elicitation: { form: {} } }, ...(era === '2026-07-28' ? { versionNegotiation: { mode: { pin: era } } } : {}) }
      );
      client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { confirm: true } }));
      await client.connect(
        new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
          fetch: async (url, init) => hono.fetch(new Request(url, init))
        })
      );
      try {
        assert.equal(client.getNegotiatedProtocolVersion(), era);
        const { tools } = await client.listTools();
        assert.ok(tools.some((t) => t.name === 'notes.import'));
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
    const response = await hono.fetch(
      new Request('http://evil.example/mcp', {
        method: 'POST',
        headers: { host: 'evil.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{}'
      })
    );
    assert.equal(response.status, 403);
  });
});
