import { connectTestClient } from '@mcpfusion/core/testing';
import { eachDatabase, recordQuestions, textOf, useBillingApp } from './test-helpers';

const CONSENT_URL = 'https://accounts.example.com/github/consent?client_id=billing-desk&scope=read';

// Every test runs on SQLite and on PostgreSQL (skipped by name when PostgreSQL is not installed).
eachDatabase('account.connect', (database) => {
  const desk = useBillingApp({ database });

  function connections(): Promise<Array<{ provider: string; connected_at: string }>> {
    return desk.sql.all('SELECT * FROM connected_accounts ORDER BY provider');
  }

  test('asks for a visit to the consent page, keyed "consent", and connects once it is accepted', async () => {
    const questions = recordQuestions(() => ({ action: 'accept' }));
    const result = await desk.app.callTool('account.connect', { provider: 'github' }, { onInput: questions.onInput });

    expect(result.isError).toBeFalsy();
    const rows = await connections();
    expect(rows).toEqual([{ provider: 'github', connected_at: expect.any(String) }]);
    expect(textOf(result)).toBe(`Your github account is connected (since ${rows[0].connected_at}).`);
    expect(questions.asked).toEqual([
      expect.objectContaining({ kind: 'url', key: 'consent', message: 'Connect your github account', url: CONSENT_URL })
    ]);
  });

  test('declined by key with the answers map: not connected', async () => {
    const result = await desk.app.callTool('account.connect', { provider: 'stripe' }, { answers: { consent: false } });
    expect(result.isError).toBe(true); // a declined request ends the call as an error result
    expect(textOf(result)).toBe('Your stripe account was not connected.');
    expect(await connections()).toEqual([]);
  });

  test('an unknown provider is refused before anything is asked', async () => {
    const questions = recordQuestions(() => ({ action: 'accept' }));
    const result = await desk.app.callTool('account.connect', { provider: 'myspace' }, { onInput: questions.onInput });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/provider must be one of the following values: github, google, stripe/);
    expect(questions.asked).toEqual([]);
  });

  describe.each(['modern', 'legacy-http', 'legacy-memory'] as const)('through a real client (%s)', (era) => {
    test('accepted: connected', async () => {
      const questions = recordQuestions(() => ({ action: 'accept' }));
      const { client, close } = await connectTestClient(desk.app, { era, onInput: questions.onInput });
      try {
        await client.listTools(); // as a host would: the result must also satisfy the (absent) output schema
        const result = await client.callTool({ name: 'account.connect', arguments: { provider: 'google' } });
        expect(result.isError).toBeFalsy();
        expect(textOf(result)).toMatch(/^Your google account is connected \(since .+\)\.$/);
        expect(questions.asked.map((q) => [q.kind, q.url])).toEqual([['url', CONSENT_URL.replace('github', 'google')]]);
        expect((await connections()).map((c) => c.provider)).toEqual(['google']);
      } finally {
        await close();
      }
    });

    test('declined: not connected', async () => {
      const { client, close } = await connectTestClient(desk.app, { era, onInput: () => ({ action: 'decline' }) });
      try {
        await client.listTools();
        const result = await client.callTool({ name: 'account.connect', arguments: { provider: 'github' } });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toBe('Your github account was not connected.');
        expect(await connections()).toEqual([]);
      } finally {
        await close();
      }
    });
  });
});
