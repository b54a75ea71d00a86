import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { FusionApp } from '@mcpfusion/core';
import { createApp } from '../src/app.ts';
import { rawStatus, pingWithHost } from './raw-http.ts';
import { serve, type Serving } from '../src/server.ts';

/** A real SDK client of either protocol era, answering the questions tools ask with `confirm`. */
async function connect(url: URL, era: '2026-07-28' | '2025-11-25', confirm = true): Promise<Client> {
  const client = new Client(
    { name: 'bun-template-test', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      // Pinned: the 2026-07-28 era; the default connect is the 2025 one (a session).
      ...(era === '2026-07-28' ? { versionNegotiation: { mode: { pin: era } } } : {})
    }
  );
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm } }));
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

// Through real SDK clients over HTTP, served by Bun.serve as main.ts serves it.
describe('the server on Bun.serve', () => {
  let app: FusionApp;
  let serving: Serving;
  beforeAll(() => {
    app = createApp({ importPaceMs: 1 });
    serving = serve(app, { port: 0 });
  });
  afterAll(async () => {
    await app.close();
    await serving.stop();
  });

  for (const era of ['2026-07-28', '2025-11-25'] as const) {
    test(`${era}: lists the tools, imports with progress, answers the question of notes.clear`, async () => {
      const client = await connect(serving.url, era);
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(era);
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual(['greet', 'notes.add', 'notes.clear', 'notes.import', 'notes.list']);
        const seen: number[] = [];
        const imported = await client.callTool(
          { name: 'notes.import', arguments: { texts: ['x', 'y', 'z'] } },
          { onprogress: (p) => seen.push(p.progress) }
        );
        expect(imported.content).toEqual([{ type: 'text', text: 'Imported 3 notes.' }]);
        // Every progress notification arrives before the result.
        expect(seen).toEqual([1, 2, 3]);
        const cleared = await client.callTool({ name: 'notes.clear', arguments: {} });
        expect(cleared.content).toEqual([{ type: 'text', text: 'Deleted 3 notes.' }]);
      } finally {
        await client.close();
      }
    });
  }

  for (const era of ['2026-07-28', '2025-11-25'] as const) {
    test(`${era}: a cancelled import stops midway, and notes.add answers at once`, async () => {
      // A minute between two notes: the import is still running when it is cancelled.
      const slowApp = createApp({ importPaceMs: 60_000 });
      const slow = serve(slowApp, { port: 0 });
      const client = await connect(slow.url, era);
      try {
        const controller = new AbortController();
        const first = Promise.withResolvers<void>();
        const importing = client.callTool(
          { name: 'notes.import', arguments: { texts: ['kept', 'never'] } },
          { signal: controller.signal, onprogress: () => first.resolve() }
        );
        await first.promise;
        // 2026-07-28: the client closes the response stream; 2025-11-25: it sends notifications/cancelled.
        controller.abort();
        expect(
          await importing.then(
            () => 'finished',
            () => 'cancelled'
          )
        ).toBe('cancelled');
        // Were the mutation lock still held, this would wait a minute behind the import.
        expect((await client.callTool({ name: 'notes.add', arguments: { text: 'next' } })).structuredContent).toEqual({
          id: 2,
          text: 'next'
        });
      } finally {
        await client.close();
        await slowApp.close();
        await slow.stop();
      }
    });
  }

  test('refuses a request whose Host is not allowed (DNS rebinding protection)', async () => {
    expect(await rawStatus(serving.url, pingWithHost(serving.url, 'evil.example'))).toBe(403);
    // The same request with the address's own Host is served.
    expect(await rawStatus(serving.url, pingWithHost(serving.url, serving.url.host))).not.toBe(403);
  });
});
