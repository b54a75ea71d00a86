import { deepEqual, equal, ok } from 'node:assert/strict';
import type { FusionApp } from '@mcpfusion/core';
import { createApp } from '../src/app.ts';

/** Runs `body` with a fresh app, closed afterwards. */
async function withApp(options: Parameters<typeof createApp>[0], body: (app: FusionApp) => Promise<void>): Promise<void> {
  const app = createApp(options);
  try {
    await body(app);
  } finally {
    await app.close();
  }
}

// Through the app itself: no transport, the whole chain (validation, DI, presenter) runs.
Deno.test('lists the tools with their schemas and hints (Deno kept the decorator metadata)', () =>
  withApp({}, async (app) => {
    const tools = app.listTools();
    deepEqual(tools.map((t) => t.name).sort(), ['greet', 'notes.add', 'notes.clear', 'notes.import', 'notes.list']);
    // The schemas are derived from the input classes' property types: the metadata Deno's compiler emitted.
    const greet = tools.find((t) => t.name === 'greet')!;
    deepEqual(greet.inputSchema.required, ['name']);
    deepEqual(greet.inputSchema.properties?.name, { type: 'string', minLength: 1, maxLength: 50, description: 'Who to greet' });
    const texts = tools.find((t) => t.name === 'notes.import')!.inputSchema.properties?.texts as Record<string, unknown>;
    deepEqual(
      [texts.type, texts.minItems, texts.maxItems, texts.items],
      ['array', 1, 1000, { type: 'string', minLength: 1, maxLength: 200 }]
    );
    equal(greet.annotations?.readOnlyHint, true);
    equal(tools.find((t) => t.name === 'notes.add')!.annotations?.destructiveHint, true);
  })
);

Deno.test('greet answers; invalid input is refused before the handler runs', () =>
  withApp({}, async (app) => {
    deepEqual((await app.callTool('greet', { name: 'Ada' })).content, [{ type: 'text', text: 'Hello, Ada!' }]);
    const refused = await app.callTool('greet', { name: '', extra: 1 });
    equal(refused.isError, true);
    ok((refused.content[0] as { text: string }).text.includes('extra'));
  })
);

Deno.test('notes.add writes to the injected note book, notes.list reads it; a full book is a tool error', () =>
  withApp({ noteLimit: 2 }, async (app) => {
    deepEqual((await app.callTool('notes.add', { text: 'buy milk' })).structuredContent, { id: 1, text: 'buy milk' });
    deepEqual((await app.callTool('notes.list')).structuredContent, { notes: [{ id: 1, text: 'buy milk' }] });
    await app.callTool('notes.add', { text: 'two' });
    const full = await app.callTool('notes.add', { text: 'three' });
    deepEqual(full, { isError: true, content: [{ type: 'text', text: 'The note book is full (2 notes).' }] });
  })
);

Deno.test('notes.import adds the notes one by one and reports each', () =>
  withApp({ importPaceMs: 1 }, async (app) => {
    const seen: string[] = [];
    const result = await app.callTool(
      'notes.import',
      { texts: ['a', 'b'] },
      { onProgress: (progress, message, total) => seen.push(`${progress}/${total}: ${message}`) }
    );
    deepEqual(result.content, [{ type: 'text', text: 'Imported 2 notes.' }]);
    deepEqual(seen, ['1/2: imported 1 of 2', '2/2: imported 2 of 2']);
    deepEqual((await app.callTool('notes.list')).structuredContent, {
      notes: [
        { id: 1, text: 'a' },
        { id: 2, text: 'b' }
      ]
    });
  })
);

Deno.test('a cancelled notes.import stops midway and the next mutation runs at once', () =>
  withApp({ importPaceMs: 60_000 }, async (app) => {
    const controller = new AbortController();
    const first = Promise.withResolvers<void>();
    const importing = app.callTool(
      'notes.import',
      { texts: ['one', 'two', 'three'] },
      { signal: controller.signal, onProgress: () => first.resolve() }
    );
    await first.promise; // the first note is in, the import waits a minute before the second
    controller.abort();
    await importing.catch(() => undefined);
    // Without the abortable pause this call would wait for the import's lock (and the test's timer sanitizer would fail).
    deepEqual((await app.callTool('notes.add', { text: 'next' })).structuredContent, { id: 2, text: 'next' });
  })
);

Deno.test('notes.clear asks first: a no deletes nothing, a yes deletes every note', () =>
  withApp({}, async (app) => {
    await app.callTool('notes.add', { text: 'one' });
    const asked: string[] = [];
    const no = await app.callTool(
      'notes.clear',
      {},
      { onInput: (request) => (asked.push(request.message ?? ''), { action: 'accept', content: { confirm: false } }) }
    );
    deepEqual(asked, ['Delete all 1 notes?']);
    deepEqual(no, { isError: true, content: [{ type: 'text', text: 'Nothing was deleted.' }] });
    const yes = await app.callTool('notes.clear', {}, { answers: { confirm: true } });
    deepEqual(yes.content, [{ type: 'text', text: 'Deleted 1 notes.' }]);
  })
);
