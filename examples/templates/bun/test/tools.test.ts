import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import type { FusionApp } from '@mcpfusion/core';
import { createApp } from '../src/app.ts';

// Through the app itself: no transport, the whole chain (validation, DI, presenter) runs.
describe('the tools, called directly', () => {
  let app: FusionApp;
  beforeEach(() => {
    app = createApp({ noteLimit: 3, importPaceMs: 1 });
  });
  afterEach(() => app.close());

  test('lists the tools with their schemas and hints (Bun kept the decorator metadata)', () => {
    const tools = app.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['greet', 'notes.add', 'notes.clear', 'notes.import', 'notes.list']);
    // The schemas are derived from the input classes' property types: the metadata Bun's transpiler emitted.
    expect(tools.find((t) => t.name === 'greet')!.inputSchema).toMatchObject({
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: { name: { type: 'string', minLength: 1, maxLength: 50, description: 'Who to greet' } }
    });
    expect(tools.find((t) => t.name === 'notes.import')!.inputSchema).toMatchObject({
      required: ['texts'],
      properties: { texts: { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'string', minLength: 1, maxLength: 200 } } }
    });
    expect(tools.find((t) => t.name === 'greet')!.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((t) => t.name === 'notes.add')!.annotations).toMatchObject({ destructiveHint: true });
  });

  test('greet answers; invalid input is refused before the handler runs', async () => {
    expect((await app.callTool('greet', { name: 'Ada' })).content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    const refused = await app.callTool('greet', { name: '', extra: 1 });
    expect(refused.isError).toBe(true);
    expect((refused.content[0] as { text: string }).text).toContain('extra');
  });

  test('notes.add writes to the injected note book, notes.list reads it; a full book is a tool error', async () => {
    expect((await app.callTool('notes.add', { text: 'buy milk' })).structuredContent).toEqual({ id: 1, text: 'buy milk' });
    expect((await app.callTool('notes.list')).structuredContent).toEqual({ notes: [{ id: 1, text: 'buy milk' }] });
    await app.callTool('notes.add', { text: 'two' });
    await app.callTool('notes.add', { text: 'three' });
    const full = await app.callTool('notes.add', { text: 'four' });
    expect(full).toEqual({ isError: true, content: [{ type: 'text', text: 'The note book is full (3 notes).' }] });
  });

  test('notes.import adds the notes one by one and reports each', async () => {
    const seen: string[] = [];
    const result = await app.callTool(
      'notes.import',
      { texts: ['a', 'b'] },
      { onProgress: (progress, message, total) => seen.push(`${progress}/${total}: ${message}`) }
    );
    expect(result.content).toEqual([{ type: 'text', text: 'Imported 2 notes.' }]);
    expect(seen).toEqual(['1/2: imported 1 of 2', '2/2: imported 2 of 2']);
    expect((await app.callTool('notes.list')).structuredContent).toEqual({
      notes: [
        { id: 1, text: 'a' },
        { id: 2, text: 'b' }
      ]
    });
  });

  test('a cancelled notes.import stops midway and the next mutation runs at once', async () => {
    const slow = createApp({ importPaceMs: 60_000 });
    try {
      const controller = new AbortController();
      const first = Promise.withResolvers<void>();
      const importing = slow.callTool(
        'notes.import',
        { texts: ['one', 'two', 'three'] },
        { signal: controller.signal, onProgress: () => first.resolve() }
      );
      await first.promise; // the first note is in, the import waits a minute before the second
      controller.abort();
      await importing.catch(() => undefined);
      // Without the abortable pause this call would wait for the import's lock.
      expect((await slow.callTool('notes.add', { text: 'next' })).structuredContent).toEqual({ id: 2, text: 'next' });
      expect((await slow.callTool('notes.list')).structuredContent).toEqual({
        notes: [
          { id: 1, text: 'one' },
          { id: 2, text: 'next' }
        ]
      });
    } finally {
      await slow.close();
    }
  });

  test('notes.clear asks first: a no deletes nothing, a yes deletes every note', async () => {
    await app.callTool('notes.add', { text: 'one' });
    const asked: string[] = [];
    const no = await app.callTool(
      'notes.clear',
      {},
      { onInput: (request) => (asked.push(request.message ?? ''), { action: 'accept', content: { confirm: false } }) }
    );
    expect(asked).toEqual(['Delete all 1 notes?']);
    expect(no).toEqual({ isError: true, content: [{ type: 'text', text: 'Nothing was deleted.' }] });
    const yes = await app.callTool('notes.clear', {}, { answers: { confirm: true } });
    expect(yes.content).toEqual([{ type: 'text', text: 'Deleted 1 notes.' }]);
  });
});
