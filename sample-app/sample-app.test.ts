import { connectTestClient } from '@mcpfusion/core/testing';
import { countWithStatus, eachDatabase, readInvoiceRow, recordQuestions, textOf, useBillingApp, type InvoiceRow } from './test-helpers';

const ERAS = ['modern', 'legacy-http', 'legacy-memory'] as const;
const TOOL_NAMES = [
  'account.connect',
  'billing.adjust',
  'billing.invoice',
  'billing.list',
  'billing.refund',
  'report.generate',
  'reports.rebuild'
];
/** Tools that answer a declined request with plain text, so they declare no output schema (see AccountTools). */
const TEXT_TOOLS = ['account.connect'];

// Every test runs on SQLite and on PostgreSQL (skipped by name when PostgreSQL is not installed).
eachDatabase('the billing desk', (database) => {
  const desk = useBillingApp({ database });

  async function firstWithStatus(status: string): Promise<InvoiceRow> {
    return (await desk.sql.get<InvoiceRow>('SELECT * FROM invoices WHERE status = @status ORDER BY id LIMIT 1', { status }))!;
  }

  describe('tools/list', () => {
    test.each(ERAS)('lists the seven tools with descriptions, schemas and annotations (%s)', async (era) => {
      const { client, close } = await connectTestClient(desk.app, { era });
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
        const byName = new Map(tools.map((t) => [t.name, t]));
        for (const tool of tools) {
          expect(tool.description).toEqual(expect.any(String));
          expect(tool.description!.length).toBeGreaterThan(20);
          expect(tool.inputSchema.type).toBe('object');
          expect(tool.outputSchema?.type).toBe(TEXT_TOOLS.includes(tool.name) ? undefined : 'object');
        }
        for (const name of ['billing.invoice', 'billing.list', 'report.generate']) {
          expect(byName.get(name)!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
        }
        expect(byName.get('account.connect')!.annotations).toMatchObject({
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: true
        });
        for (const name of ['billing.refund', 'billing.adjust', 'reports.rebuild']) {
          expect(byName.get(name)!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
        }

        const invoice = byName.get('billing.invoice')!;
        expect(invoice.inputSchema).toMatchObject({
          required: ['id'],
          additionalProperties: false,
          properties: { id: { type: 'integer', minimum: 1, description: expect.stringContaining('invoice id') } }
        });
        // The output schema is the allowlist: internal columns are not part of it.
        const outputProps = invoice.outputSchema!.properties as Record<string, { properties?: Record<string, unknown> }>;
        expect(Object.keys(outputProps)).not.toContain('internalNote');
        expect(Object.keys(outputProps.customer.properties!).sort()).toEqual(['email', 'id', 'name']);

        expect(byName.get('billing.list')!.inputSchema.properties).toMatchObject({
          status: { enum: ['open', 'paid', 'refunded'], description: expect.any(String) },
          customer: { type: 'integer', minimum: 1 },
          limit: { type: 'integer', minimum: 1, maximum: 100 }
        });
        expect(byName.get('report.generate')!.inputSchema).toMatchObject({
          required: ['year', 'quarter'],
          properties: { quarter: { minimum: 1, maximum: 4 }, year: { minimum: 2000, maximum: 2100 } }
        });
        expect(byName.get('reports.rebuild')!.inputSchema.properties).toMatchObject({ throttleMs: { minimum: 0, maximum: 1000 } });
        expect(byName.get('billing.adjust')!.inputSchema).toMatchObject({
          required: ['id'],
          properties: { id: { type: 'integer', minimum: 1 } }
        });
        expect(byName.get('account.connect')!.inputSchema).toMatchObject({
          required: ['provider'],
          properties: { provider: { enum: ['github', 'google', 'stripe'] } }
        });
      } finally {
        await close();
      }
    });
  });

  describe('billing.invoice', () => {
    test('returns the invoice with its customer, without internal fields', async () => {
      const row = await readInvoiceRow(desk.sql, 4);
      expect(row.internal_note).toBeTruthy();

      const result = await desk.app.callTool('billing.invoice', { id: 4 });

      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({
        id: 4,
        amountCents: row.amount_cents,
        currency: 'EUR',
        status: row.status,
        issuedOn: row.issued_on,
        ...(row.refunded_at ? { refundedAt: row.refunded_at } : {}),
        customer: { id: expect.any(Number), name: expect.any(String), email: expect.stringContaining('@') }
      });
      const customer = (result.structuredContent as { customer: Record<string, unknown> }).customer;
      expect(customer).not.toHaveProperty('creditLimitCents');
      expect(result.structuredContent).not.toHaveProperty('internalNote');
      const text = textOf(result);
      expect(text).not.toContain(row.internal_note!);
      expect(text).not.toMatch(/creditLimit|internalNote|credit_limit|internal_note/);
    });

    test('omits refundedAt for an invoice that was not refunded', async () => {
      const paid = await firstWithStatus('paid');
      const result = await desk.app.callTool('billing.invoice', { id: paid.id });
      expect(result.structuredContent).toMatchObject({ id: paid.id, status: 'paid' });
      expect(result.structuredContent).not.toHaveProperty('refundedAt');
    });

    test.each(ERAS)('a real client gets the same allowlisted result, valid against the output schema (%s)', async (era) => {
      const { client, close } = await connectTestClient(desk.app, { era });
      try {
        const result = await client.callTool({ name: 'billing.invoice', arguments: { id: 7 } });
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toMatchObject({ id: 7, customer: { name: expect.any(String) } });
        expect(JSON.stringify(result)).not.toMatch(/creditLimit|internalNote/);
      } finally {
        await close();
      }
    });

    test('an unknown id is a tool error that says what to do', async () => {
      const result = await desk.app.callTool('billing.invoice', { id: 999 });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('Invoice 999 does not exist. Call billing.list to find invoice ids.');
    });

    test('invalid arguments are refused before the handler runs', async () => {
      const zero = await desk.app.callTool('billing.invoice', { id: 0 });
      expect(zero.isError).toBe(true);
      expect(textOf(zero)).toMatch(/id: id must not be less than 1/);

      const text = await desk.app.callTool('billing.invoice', { id: '4' });
      expect(text.isError).toBe(true);
      expect(textOf(text)).toMatch(/id must be an integer/);

      const extra = await desk.app.callTool('billing.invoice', { id: 4, internalNote: 'x' });
      expect(extra.isError).toBe(true);
      expect(textOf(extra)).toMatch(/property internalNote should not exist/);
    });
  });

  describe('billing.list', () => {
    test('shows ten invoices newest first and says how many more there are', async () => {
      const result = await desk.app.callTool('billing.list', {});
      const structured = result.structuredContent as { items: Array<{ id: number; issuedOn: string }>; total: number; omitted: number };
      expect(structured.total).toBe(40);
      expect(structured.omitted).toBe(30);
      expect(structured.items).toHaveLength(10);
      const dates = structured.items.map((i) => i.issuedOn);
      expect(dates).toEqual([...dates].sort().reverse());
      const text = textOf(result);
      expect(text).toContain('30 more not shown (40 in all)');
      expect(text).toContain('Call billing.invoice with an id for the details of one invoice.');
    });

    test('filters by status and customer, and a small limit needs no cap', async () => {
      const refunded = await desk.app.callTool('billing.list', { status: 'refunded' });
      const expectedRefunded = await countWithStatus(desk.sql, 'refunded');
      const refundedItems = (refunded.structuredContent as { items: Array<{ status: string }>; total: number }).items;
      expect((refunded.structuredContent as { total: number }).total).toBe(expectedRefunded);
      expect(refundedItems.every((i) => i.status === 'refunded')).toBe(true);

      const acme = await desk.app.callTool('billing.list', { customer: 1, limit: 3 });
      const acmeContent = acme.structuredContent as {
        items: Array<{ customerId: number; customerName: string }>;
        total: number;
        omitted: number;
      };
      expect(acmeContent.items).toHaveLength(3);
      expect(acmeContent.omitted).toBe(0);
      expect(acmeContent.items.every((i) => i.customerId === 1 && i.customerName === 'Acme Corp')).toBe(true);
      expect(textOf(acme)).not.toContain('more not shown');
    });

    test('refuses a status outside the enum and a limit above 100', async () => {
      const status = await desk.app.callTool('billing.list', { status: 'void' });
      expect(status.isError).toBe(true);
      expect(textOf(status)).toMatch(/status must be one of the following values: open, paid, refunded/);
      const limit = await desk.app.callTool('billing.list', { limit: 101 });
      expect(limit.isError).toBe(true);
      expect(textOf(limit)).toMatch(/limit must not be greater than 100/);
    });
  });

  describe('billing.refund', () => {
    test('refunds once when confirmed; a second refund is an error, raised without asking, that changes nothing', async () => {
      const paid = await firstWithStatus('paid');

      const first = await desk.app.callTool('billing.refund', { id: paid.id }, { answers: { confirm: true } });
      expect(first.isError).toBeFalsy();
      expect(first.structuredContent).toMatchObject({ id: paid.id, status: 'refunded', refundedAt: expect.any(String) });
      const afterFirst = await readInvoiceRow(desk.sql, paid.id);
      expect(afterFirst.status).toBe('refunded');
      expect(afterFirst.refunded_at).toBe((first.structuredContent as { refundedAt: string }).refundedAt);

      const questions = recordQuestions(() => ({ action: 'accept', content: { confirm: true } }));
      const second = await desk.app.callTool('billing.refund', { id: paid.id }, { onInput: questions.onInput });
      expect(second.isError).toBe(true);
      expect(textOf(second)).toBe(`Invoice ${paid.id} was already refunded at ${afterFirst.refunded_at}; nothing was changed.`);
      expect(questions.asked).toEqual([]);
      expect(await readInvoiceRow(desk.sql, paid.id)).toEqual(afterFirst);
    });

    test('concurrent confirmed refunds of one invoice: exactly one succeeds', async () => {
      const open = await firstWithStatus('open');
      const results = await Promise.all(
        [1, 2, 3].map(() => desk.app.callTool('billing.refund', { id: open.id }, { answers: { confirm: true } }))
      );
      expect(results.filter((r) => !r.isError)).toHaveLength(1);
      expect(results.filter((r) => r.isError)).toHaveLength(2);
      expect((await readInvoiceRow(desk.sql, open.id)).status).toBe('refunded');
    });

    test('an unknown id is a tool error, raised without asking, and writes nothing', async () => {
      const before = await countWithStatus(desk.sql, 'refunded');
      const questions = recordQuestions(() => ({ action: 'accept', content: { confirm: true } }));
      const result = await desk.app.callTool('billing.refund', { id: 4242 }, { onInput: questions.onInput });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('Invoice 4242 does not exist. Call billing.list to find invoice ids.');
      expect(questions.asked).toEqual([]);
      expect(await countWithStatus(desk.sql, 'refunded')).toBe(before);
    });

    test.each(ERAS)('works through a real client that confirms (%s)', async (era) => {
      const { client, close } = await connectTestClient(desk.app, { era, answers: { confirm: true } });
      try {
        const paid = await firstWithStatus('paid');
        const first = await client.callTool({ name: 'billing.refund', arguments: { id: paid.id } });
        expect(first.isError).toBeFalsy();
        expect(first.structuredContent).toMatchObject({ id: paid.id, status: 'refunded' });
        expect((await readInvoiceRow(desk.sql, paid.id)).status).toBe('refunded');
        const second = await client.callTool({ name: 'billing.refund', arguments: { id: paid.id } });
        expect(second.isError).toBe(true);
        expect(textOf(second)).toContain('already refunded');
      } finally {
        await close();
      }
    });
  });

  describe('report.generate', () => {
    interface Totals {
      invoiceCount: number;
      billedCents: number;
      paidCents: number;
      openCents: number;
      refundedCents: number;
      netCents: number;
    }

    /** Independent of the tool's SQL: every invoice, filtered and summed in plain JS. */
    async function expectedMonth(month: string): Promise<Totals & { month: string }> {
      const rows = (await desk.sql.all<InvoiceRow>('SELECT status, amount_cents, issued_on FROM invoices')).filter((r) =>
        r.issued_on.startsWith(`${month}-`)
      );
      const by = (status: string): number => rows.filter((r) => r.status === status).reduce((s, r) => s + r.amount_cents, 0);
      const billed = rows.reduce((s, r) => s + r.amount_cents, 0);
      return {
        month,
        invoiceCount: rows.length,
        billedCents: billed,
        paidCents: by('paid'),
        openCents: by('open'),
        refundedCents: by('refunded'),
        netCents: billed - by('refunded')
      };
    }

    test.each([
      [2025, 1, ['2025-01', '2025-02', '2025-03']],
      [2025, 4, ['2025-10', '2025-11', '2025-12']],
      [2026, 3, ['2026-07', '2026-08', '2026-09']]
    ])('totals per month of %i Q%i match the invoices', async (year, quarter, months) => {
      const result = await desk.app.callTool('report.generate', { year, quarter });
      expect(result.isError).toBeFalsy();
      const report = result.structuredContent as { year: number; quarter: number; months: Totals[]; totals: Totals };
      expect(report.year).toBe(year);
      expect(report.quarter).toBe(quarter);
      const expected = await Promise.all(months.map(expectedMonth));
      expect(report.months).toEqual(expected);
      const sum = (key: keyof Totals): number => expected.reduce((s, m) => s + m[key], 0);
      expect(report.totals).toEqual({
        invoiceCount: sum('invoiceCount'),
        billedCents: sum('billedCents'),
        paidCents: sum('paidCents'),
        openCents: sum('openCents'),
        refundedCents: sum('refundedCents'),
        netCents: sum('netCents')
      });
      expect(report.totals.invoiceCount).toBeGreaterThan(0);
      // The chart reaches a person as lines of a text block; the structured content is the data alone.
      expect(report).not.toHaveProperty('chart');
      const chart = (result.content as { type: string; text: string }[])
        .map((block) => block.text)
        .join('\n')
        .split('\n');
      expect(chart[0]).toBe(`Net per month, Q${quarter} ${year}:`);
      expect(chart.slice(1, 4).map((line) => line.slice(0, 7))).toEqual(months);
    });

    test('seed data is deterministic: Q1 2025 has known totals', async () => {
      const result = await desk.app.callTool('report.generate', { year: 2025, quarter: 1 });
      expect((result.structuredContent as { totals: Totals }).totals).toEqual({
        invoiceCount: 5,
        billedCents: 500_000,
        paidCents: 240_000,
        openCents: 152_500,
        refundedCents: 107_500,
        netCents: 392_500
      });
    });

    test('a refund moves money from paid to refunded in the report', async () => {
      const before = (await desk.app.callTool('report.generate', { year: 2025, quarter: 1 })).structuredContent as { totals: Totals };
      const paid = (await desk.sql.get<{ id: number; amount_cents: number }>(
        "SELECT id, amount_cents FROM invoices WHERE status = 'paid' AND issued_on LIKE '2025-0%' ORDER BY id LIMIT 1"
      ))!;
      expect((await desk.app.callTool('billing.refund', { id: paid.id }, { answers: { confirm: true } })).isError).toBeFalsy();
      const after = (await desk.app.callTool('report.generate', { year: 2025, quarter: 1 })).structuredContent as { totals: Totals };
      expect(after.totals.paidCents).toBe(before.totals.paidCents - paid.amount_cents);
      expect(after.totals.refundedCents).toBe(before.totals.refundedCents + paid.amount_cents);
    });

    test('an empty quarter reports zeros for each month', async () => {
      const result = await desk.app.callTool('report.generate', { year: 2030, quarter: 2 });
      const report = result.structuredContent as { months: Totals[]; totals: Totals };
      expect(report.months).toHaveLength(3);
      expect(report.totals.invoiceCount).toBe(0);
      expect(report.totals.netCents).toBe(0);
    });

    test('refuses quarter 5 and a year out of bounds', async () => {
      const q5 = await desk.app.callTool('report.generate', { year: 2025, quarter: 5 });
      expect(q5.isError).toBe(true);
      expect(textOf(q5)).toMatch(/quarter must not be greater than 4/);
      const y = await desk.app.callTool('report.generate', { year: 1999, quarter: 1 });
      expect(y.isError).toBe(true);
      expect(textOf(y)).toMatch(/year must not be less than 2000/);
    });

    test('reports progress in stages to a direct caller', async () => {
      const seen: Array<[number, string | undefined]> = [];
      const result = await desk.app.callTool('report.generate', { year: 2025, quarter: 2 }, { onProgress: (p, m) => seen.push([p, m]) });
      expect(result.isError).toBeFalsy();
      expect(seen[0]).toEqual([30, 'rows loaded']);
      // Reports made while one is being written coalesce into the latest, and the latest is always delivered.
      expect(seen[seen.length - 1]).toEqual([90, 'charts rendered']);
      for (const [percent, message] of seen) {
        expect([
          [30, 'rows loaded'],
          [60, 'totals computed'],
          [90, 'charts rendered']
        ]).toContainEqual([percent, message]);
      }
      expect(seen.map(([p]) => p)).toEqual([...new Set(seen.map(([p]) => p))].sort((a, b) => a - b));
    });

    test.each(ERAS)('a real client with a progress token receives progress (%s)', async (era) => {
      const { client, close } = await connectTestClient(desk.app, { era });
      try {
        const seen: Array<{ progress: number; total?: number; message?: string }> = [];
        const result = await client.callTool(
          { name: 'report.generate', arguments: { year: 2025, quarter: 3 } },
          { onprogress: (p) => seen.push({ progress: p.progress, total: p.total, message: p.message }) }
        );
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toMatchObject({ year: 2025, quarter: 3 });
        // The 2.4.0 client can drop the last notification when it arrives with the result,
        // so only the first one and the ordering are asserted.
        expect(seen.length).toBeGreaterThanOrEqual(1);
        expect(seen[0]).toEqual({ progress: 30, total: 100, message: 'rows loaded' });
        const percents = seen.map((s) => s.progress);
        expect(percents).toEqual([...percents].sort((a, b) => a - b));
        expect(new Set(percents).size).toBe(percents.length);
        expect(percents.every((p) => [30, 60, 90].includes(p))).toBe(true);
      } finally {
        await close();
      }
    });

    test('a call cancelled between stages ends as a cancelled tool error', async () => {
      const controller = new AbortController();
      const seen: number[] = [];
      const result = await desk.app.callTool(
        'report.generate',
        { year: 2025, quarter: 1 },
        {
          signal: controller.signal,
          onProgress: (p) => {
            seen.push(p);
            controller.abort();
          }
        }
      );
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/cancelled/i);
      expect(seen).toEqual([30]);
    });
  });
});
