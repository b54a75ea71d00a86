import type { FusionApp } from '@mcpfusion/core';
import { createApp } from '../src/app';

// Through the app itself: no transport, the whole chain (validation, DI, presenter) runs.
describe('the starter tools, called directly', () => {
  let app: FusionApp;
  beforeEach(() => {
    app = createApp({ noteLimit: 2 });
  });
  afterEach(() => app.close());

  test('lists the tools with their schemas and hints', () => {
    const tools = app.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['greet', 'notes.add', 'notes.clear', 'notes.import', 'notes.list']);
    const greet = tools.find((t) => t.name === 'greet')!;
    expect(greet.inputSchema).toMatchObject({
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: { name: { type: 'string', minLength: 1, maxLength: 50, description: 'Who to greet' } }
    });
    expect(greet.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((t) => t.name === 'notes.add')!.annotations).toMatchObject({ destructiveHint: true });
  });

  test('greet answers with text', async () => {
    const result = await app.callTool('greet', { name: 'Ada' });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
  });

  test('invalid input is refused before the handler runs', async () => {
    const result = await app.callTool('greet', { name: '', extra: 1 });
    expect(result.isError).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain('name');
    expect(text).toContain('extra');
  });

  test('notes.add writes to the injected note book, notes.list reads it', async () => {
    const added = await app.callTool('notes.add', { text: 'buy milk' });
    expect(added.structuredContent).toEqual({ id: 1, text: 'buy milk' });
    const listed = await app.callTool('notes.list');
    expect(listed.structuredContent).toEqual({ notes: [{ id: 1, text: 'buy milk' }] });
  });

  test('notes.import adds the notes one by one and reports each', async () => {
    const progress: unknown[] = [];
    const result = await app.callTool(
      'notes.import',
      { texts: ['a', 'b'] },
      { onProgress: (value, message, total) => progress.push({ progress: value, total, message }) }
    );
    expect(result.content).toEqual([{ type: 'text', text: 'Imported 2 notes.' }]);
    expect(progress).toEqual([
      { progress: 1, total: 2, message: 'imported 1 of 2' },
      { progress: 2, total: 2, message: 'imported 2 of 2' }
    ]);
  });

  test('a cancelled notes.import stops midway, and the next mutation runs at once', async () => {
    const slow = createApp({ importPaceMs: 60_000 });
    try {
      const controller = new AbortController();
      const first = new Promise<void>((resolve) => {
        void slow
          .callTool('notes.import', { texts: ['kept', 'never'] }, { signal: controller.signal, onProgress: () => resolve() })
          .catch(() => undefined);
      });
      await first;
      controller.abort();
      const added = await slow.callTool('notes.add', { text: 'next' });
      expect(added.structuredContent).toEqual({ id: 2, text: 'next' });
      expect((await slow.callTool('notes.list')).structuredContent).toEqual({
        notes: [
          { id: 1, text: 'kept' },
          { id: 2, text: 'next' }
        ]
      });
    } finally {
      await slow.close();
    }
  });

  test('notes.clear asks first: a yes deletes every note, a no deletes nothing', async () => {
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
    expect((await app.callTool('notes.list')).structuredContent).toEqual({ notes: [] });
  });

  test('an error thrown by a service becomes a tool error', async () => {
    await app.callTool('notes.add', { text: 'one' });
    await app.callTool('notes.add', { text: 'two' });
    const full = await app.callTool('notes.add', { text: 'three' });
    expect(full.isError).toBe(true);
    expect(full.content).toEqual([{ type: 'text', text: 'The note book is full (2 notes).' }]);
  });
});
