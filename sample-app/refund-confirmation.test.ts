import { connectTestClient } from '@mcpfusion/core/testing';
import { eachDatabase, readInvoiceRow, recordQuestions, textOf, useBillingApp } from './test-helpers';

const ERAS = ['modern', 'legacy-http', 'legacy-memory'] as const;

/** Seed invoice 2: open, 1,525.00, Umbrella Health. */
const INVOICE = 2;

// Every test runs on SQLite and on PostgreSQL (skipped by name when PostgreSQL is not installed).
eachDatabase('billing.refund asks to confirm', (database) => {
  const desk = useBillingApp({ database });

  function allInvoices(): Promise<unknown[]> {
    return desk.sql.all('SELECT * FROM invoices ORDER BY id');
  }

  test('asks once, in the invoice currency and by customer name, with one yes/no field, then refunds', async () => {
    const questions = recordQuestions(() => ({ action: 'accept', content: { confirm: true } }));
    const result = await desk.app.callTool('billing.refund', { id: INVOICE }, { onInput: questions.onInput });

    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ id: INVOICE, status: 'refunded' });
    expect(questions.asked).toHaveLength(1);
    expect(questions.asked[0]).toMatchObject({
      kind: 'form',
      message: 'Refund €1,525.00 to Umbrella Health?',
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', description: 'Approve the refund' } },
        required: ['confirm']
      }
    });
  });

  test('declined: "Refund cancelled" and the database is unchanged', async () => {
    const before = await allInvoices();
    const questions = recordQuestions();
    const result = await desk.app.callTool('billing.refund', { id: INVOICE }, { onInput: questions.onInput });

    expect(result.isError).toBe(true); // a declined request ends the call as an error result
    expect(textOf(result)).toBe('Refund cancelled');
    expect(questions.asked).toHaveLength(1);
    expect(await allInvoices()).toEqual(before);
  });

  test('cancelled, or answered "no": "Refund cancelled" too, and nothing is written', async () => {
    const before = await allInvoices();
    const cancelled = await desk.app.callTool('billing.refund', { id: INVOICE }, { onInput: () => ({ action: 'cancel' }) });
    expect(textOf(cancelled)).toBe('Refund cancelled');
    const no = await desk.app.callTool('billing.refund', { id: INVOICE }, { answers: { confirm: false } });
    expect(no.isError).toBe(true); // a refusal is a tool error, as a decline is: the output class allows only an invoice
    expect(textOf(no)).toBe('Refund cancelled');
    expect(await allInvoices()).toEqual(before);
  });

  test('an invoice refunded earlier fails before anything is asked', async () => {
    const refunded = (await desk.sql.get<{ id: number; refunded_at: string }>(
      "SELECT id, refunded_at FROM invoices WHERE status = 'refunded' ORDER BY id LIMIT 1"
    ))!;
    const questions = recordQuestions(() => ({ action: 'accept', content: { confirm: true } }));
    const result = await desk.app.callTool('billing.refund', { id: refunded.id }, { onInput: questions.onInput });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(`Invoice ${refunded.id} was already refunded at ${refunded.refunded_at}; nothing was changed.`);
    expect(questions.asked).toEqual([]);
  });

  test('refunded by another call while the question was open: the confirmed round refuses', async () => {
    const result = await desk.app.callTool(
      'billing.refund',
      { id: INVOICE },
      {
        onInput: async () => {
          // The question holds no lock: another refund of the same invoice completes meanwhile.
          expect((await desk.app.callTool('billing.refund', { id: INVOICE }, { answers: { confirm: true } })).isError).toBeFalsy();
          return { action: 'accept', content: { confirm: true } };
        }
      }
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`Invoice ${INVOICE} was already refunded at`);
    expect((await readInvoiceRow(desk.sql, INVOICE)).status).toBe('refunded');
  });

  test('no way to ask (direct call without answers): ELICITATION_UNSUPPORTED, nothing written', async () => {
    const before = await allInvoices();
    const result = await desk.app.callTool('billing.refund', { id: INVOICE });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('ELICITATION_UNSUPPORTED');
    expect(await allInvoices()).toEqual(before);
  });

  describe.each(ERAS)('through a real client (%s)', (era) => {
    test('confirmed: refunded exactly once', async () => {
      const { client, close } = await connectTestClient(desk.app, { era, answers: { confirm: true } });
      try {
        const result = await client.callTool({ name: 'billing.refund', arguments: { id: INVOICE } });
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toMatchObject({ id: INVOICE, status: 'refunded', refundedAt: expect.any(String) });
        const again = await client.callTool({ name: 'billing.refund', arguments: { id: INVOICE } });
        expect(again.isError).toBe(true);
        expect((await readInvoiceRow(desk.sql, INVOICE)).refunded_at).toBe((result.structuredContent as { refundedAt: string }).refundedAt);
      } finally {
        await close();
      }
    });

    test('a client that cannot answer: ELICITATION_UNSUPPORTED, nothing written', async () => {
      const before = await allInvoices();
      const { client, close } = await connectTestClient(desk.app, { era });
      try {
        const result = await client.callTool({ name: 'billing.refund', arguments: { id: INVOICE } });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain('ELICITATION_UNSUPPORTED');
        expect(await allInvoices()).toEqual(before);
      } finally {
        await close();
      }
    });
  });
});
