import type { HarnessInputAnswer, HarnessInputRequest } from '@mcpfusion/core/testing';
import { connectTestClient } from '@mcpfusion/core/testing';
import { AdjustmentReason } from './billing/adjustment-reason';
import { AdjustmentRepository } from './billing/adjustment-repository';
import { eachDatabase, recordQuestions, textOf, useBillingApp } from './test-helpers';

/** Seed invoice 2: open, 1,525.00 (152500 cents), Umbrella Health. */
const INVOICE = 2;

interface AdjustmentRow {
  id: number;
  invoice_id: number;
  reason: string;
  amount_cents: number;
  created_at: string;
  request_key: string;
}

// Every test runs on SQLite and on PostgreSQL (skipped by name when PostgreSQL is not installed).
eachDatabase('billing.adjust', (database) => {
  const desk = useBillingApp({ database });

  function adjustmentRows(): Promise<AdjustmentRow[]> {
    return desk.sql.all<AdjustmentRow>('SELECT * FROM adjustments ORDER BY id');
  }

  /** Answers the reason question with `reason`, then each amount question with the next of `amounts`. */
  function answering(reason: string, amounts: number[]): (request: HarnessInputRequest) => HarnessInputAnswer {
    return (request) => {
      const fields = Object.keys((request.requestedSchema?.properties as object | undefined) ?? {});
      return fields.includes('reason')
        ? { action: 'accept', content: { reason } }
        : { action: 'accept', content: { amount: amounts.shift() } };
    };
  }

  test('reason, then amount: one adjustment row with the amount in cents, returned without internal columns', async () => {
    const questions = recordQuestions(answering('billing-error', [12.34]));
    const result = await desk.app.callTool('billing.adjust', { id: INVOICE }, { onInput: questions.onInput });

    expect(result.isError).toBeFalsy();
    const rows = await adjustmentRows();
    expect(rows).toEqual([
      {
        id: 1,
        invoice_id: INVOICE,
        reason: 'billing-error',
        amount_cents: 1234,
        created_at: expect.any(String),
        request_key: expect.any(String)
      }
    ]);
    expect(result.structuredContent).toEqual({
      id: 1,
      invoiceId: INVOICE,
      reason: 'billing-error',
      amountCents: 1234,
      createdAt: rows[0].created_at
    });
    expect(textOf(result)).not.toContain(rows[0].request_key);

    expect(questions.asked.map((q) => q.message)).toEqual([
      'Adjust invoice 2 of Umbrella Health (€1,525.00): why?',
      'How much of €1,525.00 to credit on invoice 2 (Billing error)?'
    ]);
    expect(questions.asked[0].requestedSchema).toMatchObject({
      properties: { reason: { type: 'string', oneOf: [{ const: 'discount' }, { const: 'billing-error' }, { const: 'goodwill' }] } },
      required: ['reason']
    });
    expect(questions.asked[1].requestedSchema).toMatchObject({
      properties: { amount: { type: 'number', minimum: 0.01, maximum: 1525 } },
      required: ['amount']
    });
  });

  test('answers by name work too: the reason answered in round 1 is still read in round 3', async () => {
    const result = await desk.app.callTool('billing.adjust', { id: INVOICE }, { answers: { reason: 'goodwill', amount: 1525 } });
    expect(result.structuredContent).toMatchObject({ reason: 'goodwill', amountCents: 152_500 });
    expect(await adjustmentRows()).toHaveLength(1);
  });

  test('an amount above the invoice total is asked again, saying the previous answer was invalid', async () => {
    const questions = recordQuestions(answering('discount', [1525.01, 25]));
    const result = await desk.app.callTool('billing.adjust', { id: INVOICE }, { onInput: questions.onInput });

    expect(result.structuredContent).toMatchObject({ reason: 'discount', amountCents: 2500 });
    expect(questions.asked).toHaveLength(3);
    expect(questions.asked[1].message).not.toContain('invalid');
    expect(questions.asked[2].message).toBe(
      'The previous answer was invalid: amount must be at most 1525. How much of €1,525.00 to credit on invoice 2 (Discount)?'
    );
    expect((await adjustmentRows()).map((r) => r.amount_cents)).toEqual([2500]);
  });

  test.each([
    ['at the reason', 0],
    ['at the amount', 1]
  ])('declined %s: "Adjustment cancelled", nothing written', async (_when, declineAt) => {
    let asked = 0;
    const result = await desk.app.callTool(
      'billing.adjust',
      { id: INVOICE },
      { onInput: (request) => (asked++ === declineAt ? { action: 'decline' } : answering('goodwill', [10])(request)) }
    );
    expect(result.isError).toBe(true); // a declined request ends the call as an error result
    expect(textOf(result)).toBe('Adjustment cancelled');
    expect(asked).toBe(declineAt + 1);
    expect(await adjustmentRows()).toEqual([]);
  });

  test('the total seen at round 1 travels in the request state: a changed invoice is refused, nothing written', async () => {
    const result = await desk.app.callTool(
      'billing.adjust',
      { id: INVOICE },
      {
        onInput: async (request) => {
          // Between the rounds (no lock is held while the user answers) the invoice total changes.
          if (request.requestedSchema && 'reason' in (request.requestedSchema.properties as object)) {
            await desk.sql.run('UPDATE invoices SET amount_cents = 100000 WHERE id = @id', { id: INVOICE });
          }
          return answering('discount', [5])(request);
        }
      }
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Invoice 2 changed while the adjustment was entered (its total was €1,525.00, now €1,000.00); nothing was recorded. Start again.'
    );
    expect(await adjustmentRows()).toEqual([]);
  });

  test('an unknown or refunded invoice fails before anything is asked', async () => {
    const questions = recordQuestions(answering('discount', [5]));
    const unknown = await desk.app.callTool('billing.adjust', { id: 4242 }, { onInput: questions.onInput });
    expect(textOf(unknown)).toBe('Invoice 4242 does not exist. Call billing.list to find invoice ids.');
    const refunded = (await desk.sql.get<{ id: number }>("SELECT id FROM invoices WHERE status = 'refunded' ORDER BY id LIMIT 1"))!.id;
    const result = await desk.app.callTool('billing.adjust', { id: refunded }, { onInput: questions.onInput });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`Invoice ${refunded} was already refunded at`);
    expect(questions.asked).toEqual([]);
    expect(await adjustmentRows()).toEqual([]);
  });

  test('recording the same request key twice (a replayed final round) writes one row', async () => {
    const repository = desk.app.container.resolve(AdjustmentRepository);
    const adjustment = { invoiceId: INVOICE, reason: AdjustmentReason.Discount, amountCents: 500, at: new Date(), requestKey: 'replayed' };
    const first = await repository.record(adjustment);
    const second = await repository.record({ ...adjustment, at: new Date(Date.now() + 1000) });
    expect(second).toEqual(first);
    expect(await adjustmentRows()).toHaveLength(1);
  });

  test.each(['modern', 'legacy-http', 'legacy-memory'] as const)('through a real client (%s): both rounds, one row', async (era) => {
    const { client, close } = await connectTestClient(desk.app, { era, answers: { reason: 'discount', amount: 99.99 } });
    try {
      const result = await client.callTool({ name: 'billing.adjust', arguments: { id: INVOICE } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ invoiceId: INVOICE, reason: 'discount', amountCents: 9999 });
      expect(await adjustmentRows()).toHaveLength(1);
    } finally {
      await close();
    }
  });
});
