import 'reflect-metadata';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { FusionApp } from '@mcpfusion/core';
import { createApp } from '../src/app';

// Through the app itself: no transport, the whole chain (validation, DI, presenter) runs.
describe('the tools, called directly', () => {
  let app: FusionApp;
  beforeEach(() => {
    app = createApp({ noteLimit: 3, importPaceMs: 0 });
  });
  afterEach(() => app.close());

  test('lists the five tools', () => {
    const names = app.listTools().map((t) => t.name);
    assert.deepEqual(names.sort(), ['greet', 'notes.add', 'notes.clear', 'notes.import', 'notes.list']);
  });

  test('greet answers, invalid input is refused before the handler runs', async () => {
    assert.deepEqual((await app.callTool('greet', { name: 'Ada' })).content, [{ type: 'text', text: 'Hello, Ada!' }]);
    const refused = await app.callTool('greet', { name: '' });
    assert.equal(refused.isError, true);
  });

  test('notes.import adds the notes one by one, with progress after each', async () => {
    const seen: string[] = [];
    const result = await app.callTool(
      'notes.import',
      { texts: ['a', 'b'] },
      { onProgress: (p, message, total) => seen.push(`${p}/${total} ${message}`) }
    );
    assert.deepEqual(result.content, [{ type: 'text', text: 'Imported 2 notes.' }]);
    assert.deepEqual(seen, ['1/2 imported 1 of 2', '2/2 imported 2 of 2']);
    assert.deepEqual((await app.callTool('notes.list')).structuredContent, {
      notes: [
        { id: 1, text: 'a' },
        { id: 2, text: 'b' }
      ]
    });
  });

  test('a cancelled import stops midway and the next mutation runs at once', async () => {
    const slow = createApp({ importPaceMs: 60_000 });
    try {
      const abort = new AbortController();
      const running = slow.callTool('notes.import', { texts: ['a', 'b', 'c'] }, { signal: abort.signal, onProgress: () => abort.abort() });
      await running.catch(() => undefined);
      const added = await slow.callTool('notes.add', { text: 'next' });
      assert.deepEqual(added.structuredContent, { id: 2, text: 'next' });
    } finally {
      await slow.close();
    }
  });

  test('notes.clear asks first', async () => {
    await app.callTool('notes.add', { text: 'one' });
    const no = await app.callTool('notes.clear', {}, { answers: { confirm: false } });
    assert.equal(no.isError, true);
    const yes = await app.callTool('notes.clear', {}, { answers: { confirm: true } });
    assert.deepEqual(yes.content, [{ type: 'text', text: 'Deleted 1 notes.' }]);
  });
});
