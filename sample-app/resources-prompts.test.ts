import { connectTestClient } from '@mcpfusion/core/testing';
import { recordWire, until, type WireMessage } from '../test/helpers/wire-log';
import { eachDatabase, readInvoiceRow, useBillingApp, type InvoiceRow } from './test-helpers';
import { INVOICE_DESK_URI, REBUILD_PANEL_URI } from './views/sample-views';

const ERAS = ['modern', 'legacy-http', 'legacy-memory'] as const;
const PROMPT = 'billing.collections_letter';
const TEMPLATE = 'billing://invoices/{id}';

/** Seed invoice 2: open, 1,525.00 EUR, Umbrella Health (customer 4). */
const INVOICE = 2;
/** Seed customer 4, Umbrella Health: open invoices 2 and 22. */
const CUSTOMER = 4;

// Every test runs on SQLite and on PostgreSQL (skipped by name when PostgreSQL is not installed).
eachDatabase('resources and prompts', (database) => {
  const desk = useBillingApp({ database });

  function openInvoicesOf(customer: number): Promise<InvoiceRow[]> {
    return desk.sql.all<InvoiceRow>("SELECT * FROM invoices WHERE customer_id = @customer AND status = 'open' ORDER BY issued_on, id", {
      customer
    });
  }

  /** The text of the one text content of a `resources/read` result. */
  function jsonOf(result: { contents: Array<{ uri: string; mimeType?: string; text?: string }> }): Record<string, unknown> {
    expect(result.contents).toHaveLength(1);
    expect(result.contents[0].mimeType).toBe('application/json');
    return JSON.parse(result.contents[0].text!) as Record<string, unknown>;
  }

  function updatesIn(log: WireMessage[]): unknown[] {
    return log.filter((m) => m.method === 'notifications/resources/updated').map((m) => m.params);
  }

  describe('the invoice resource', () => {
    test('resources/list shows the two views, then the ten most recent invoices as billing://invoices/<id>', async () => {
      const { client, close } = await connectTestClient(desk.app);
      try {
        const { resources: listed } = await client.listResources();
        expect(listed.slice(0, 2).map((r) => [r.uri, r.mimeType])).toEqual([
          [INVOICE_DESK_URI, 'text/html;profile=mcp-app'],
          [REBUILD_PANEL_URI, 'text/html;profile=mcp-app']
        ]);
        const resources = listed.slice(2);
        const recent = (await desk.sql.all<{ id: number }>('SELECT id FROM invoices ORDER BY issued_on DESC, id DESC LIMIT 10')).map(
          (r) => r.id
        );
        expect(resources.map((r) => r.uri)).toEqual(recent.map((id) => `billing://invoices/${id}`));
        expect(resources[0]).toEqual({
          uri: `billing://invoices/${recent[0]}`,
          name: `invoice-${recent[0]}`,
          title: expect.stringMatching(new RegExp(`^Invoice ${recent[0]}: .+, €[\\d,]+\\.\\d\\d \\((open|paid|refunded)\\)$`)),
          mimeType: 'application/json'
        });
      } finally {
        await close();
      }
    });

    test('resources/templates/list shows billing://invoices/{id}', async () => {
      const { client, close } = await connectTestClient(desk.app);
      try {
        const { resourceTemplates } = await client.listResourceTemplates();
        expect(resourceTemplates).toEqual([
          {
            uriTemplate: TEMPLATE,
            name: 'invoice',
            title: 'Invoice',
            description: expect.stringContaining('customer'),
            mimeType: 'application/json'
          }
        ]);
      } finally {
        await close();
      }
    });

    test.each(ERAS)('reads an invoice with its customer as JSON, without internal fields (%s)', async (era) => {
      const row = await readInvoiceRow(desk.sql, 4);
      expect(row.internal_note).toBeTruthy();
      const { client, close } = await connectTestClient(desk.app, { era });
      try {
        const result = await client.readResource({ uri: 'billing://invoices/4' });
        expect(result.contents[0].uri).toBe('billing://invoices/4');
        expect(jsonOf(result)).toEqual({
          id: 4,
          amountCents: row.amount_cents,
          currency: 'EUR',
          status: row.status,
          issuedOn: row.issued_on,
          ...(row.refunded_at ? { refundedAt: row.refunded_at } : {}),
          customer: { id: row.customer_id, name: expect.any(String), email: expect.stringContaining('@') },
          adjustments: []
        });
        const wire = JSON.stringify(result);
        expect(wire).not.toContain(row.internal_note!);
        expect(wire).not.toMatch(/creditLimit|internalNote|credit_limit|internal_note|requestKey/);
      } finally {
        await close();
      }
    });

    test.each(ERAS)('an unknown id, or one not in digits, is refused with -32602 (%s)', async (era) => {
      const { client, close } = await connectTestClient(desk.app, { era });
      try {
        await expect(client.readResource({ uri: 'billing://invoices/999' })).rejects.toMatchObject({
          code: -32602,
          data: { uri: 'billing://invoices/999' }
        });
        // Only the canonical spelling is the resource (notifications name that one).
        await expect(client.readResource({ uri: 'billing://invoices/04' })).rejects.toMatchObject({ code: -32602 });
        await expect(client.readResource({ uri: 'billing://invoices/abc' })).rejects.toThrow(/id must be digits/);
      } finally {
        await close();
      }
    });

    test('shows the adjustments, without their idempotency keys', async () => {
      expect(
        (await desk.app.callTool('billing.adjust', { id: INVOICE }, { answers: { reason: 'goodwill', amount: 10 } })).isError
      ).toBeFalsy();
      const { client, close } = await connectTestClient(desk.app);
      try {
        const invoice = jsonOf(await client.readResource({ uri: `billing://invoices/${INVOICE}` }));
        expect(invoice.adjustments).toEqual([{ id: 1, reason: 'goodwill', amountCents: 1000, createdAt: expect.any(String) }]);
      } finally {
        await close();
      }
    });
  });

  describe('resource update notifications (2025-era subscription)', () => {
    test('a subscriber hears of a confirmed refund, for that invoice only, and reads it refunded', async () => {
      const { client, close } = await connectTestClient(desk.app, { era: 'legacy-memory', answers: { confirm: true } });
      try {
        const log = recordWire(client);
        await client.subscribeResource({ uri: `billing://invoices/${INVOICE}` });
        const refund = await client.callTool({ name: 'billing.refund', arguments: { id: INVOICE } });
        expect(refund.isError).toBeFalsy();
        await until(() => updatesIn(log).length > 0, 'notifications/resources/updated');
        // Another invoice's refund is not for this subscriber.
        expect((await client.callTool({ name: 'billing.refund', arguments: { id: 6 } })).isError).toBeFalsy();
        await client.listTools(); // a round trip after the second refund
        expect(updatesIn(log)).toEqual([{ uri: `billing://invoices/${INVOICE}` }]);
        const invoice = jsonOf(await client.readResource({ uri: `billing://invoices/${INVOICE}` }));
        expect(invoice).toMatchObject({
          id: INVOICE,
          status: 'refunded',
          refundedAt: (await readInvoiceRow(desk.sql, INVOICE)).refunded_at
        });
      } finally {
        await close();
      }
    });

    test('a recorded adjustment notifies too; a declined refund does not', async () => {
      const { client, close } = await connectTestClient(desk.app, { era: 'legacy-memory', answers: { reason: 'discount', amount: 25 } });
      try {
        const log = recordWire(client);
        await client.subscribeResource({ uri: `billing://invoices/${INVOICE}` });
        // These answers have no `confirm`: the refund question is declined and nothing changes.
        const refund = await client.callTool({ name: 'billing.refund', arguments: { id: INVOICE } });
        expect(refund.isError).toBe(true);
        await client.listTools();
        expect(updatesIn(log)).toEqual([]);
        expect((await client.callTool({ name: 'billing.adjust', arguments: { id: INVOICE } })).isError).toBeFalsy();
        await until(() => updatesIn(log).length > 0, 'notifications/resources/updated');
        expect(updatesIn(log)).toEqual([{ uri: `billing://invoices/${INVOICE}` }]);
      } finally {
        await close();
      }
    });
  });

  describe('the collections letter prompt', () => {
    test('prompts/list shows it with its arguments: customer required, tone optional', async () => {
      const { client, close } = await connectTestClient(desk.app);
      try {
        const { prompts } = await client.listPrompts();
        expect(prompts).toEqual([
          {
            name: PROMPT,
            title: 'Collections letter',
            description: expect.stringContaining('collections letter'),
            arguments: [
              { name: 'customer', description: expect.stringContaining('customer id'), required: true },
              { name: 'tone', description: expect.stringContaining('firm'), required: false }
            ]
          }
        ]);
      } finally {
        await close();
      }
    });

    test.each(ERAS)('renders a letter request naming the customer and listing its open invoices (%s)', async (era) => {
      const open = await openInvoicesOf(CUSTOMER);
      expect(open.map((i) => i.id)).toContain(INVOICE);
      const { client, close } = await connectTestClient(desk.app, { era });
      try {
        const result = await client.getPrompt({ name: PROMPT, arguments: { customer: String(CUSTOMER), tone: 'firm' } });
        expect(result.messages).toHaveLength(1);
        expect(result.messages[0].role).toBe('user');
        const { type, text } = result.messages[0].content as { type: string; text: string };
        expect(type).toBe('text');
        expect(text).toContain('Umbrella Health <payables@umbrella.example> (customer 4)');
        expect(text).toContain('- Invoice 2, issued 2025-01-12: €1,525.00');
        const lines = open.map((i) => `- Invoice ${i.id}, issued ${i.issued_on}: `);
        const positions = lines.map((line) => text.indexOf(line));
        expect(positions.every((p) => p >= 0)).toBe(true);
        expect(positions).toEqual([...positions].sort((a, b) => a - b)); // oldest first
        const total = open.reduce((sum, i) => sum + i.amount_cents, 0);
        expect(text).toContain(`Total of the invoices above: €${(total / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}.`);
        expect(text).toContain('Tone: firm.');
      } finally {
        await close();
      }
    });

    test('tone defaults to friendly; paid and refunded invoices are left out', async () => {
      const { client, close } = await connectTestClient(desk.app);
      try {
        const text = ((await client.getPrompt({ name: PROMPT, arguments: { customer: '1' } })).messages[0].content as { text: string })
          .text;
        expect(text).toContain('Tone: friendly.');
        const listed = [...text.matchAll(/- Invoice (\d+),/g)].map((m) => Number(m[1]));
        expect(listed.sort((a, b) => a - b)).toEqual((await openInvoicesOf(1)).map((i) => i.id).sort((a, b) => a - b));
      } finally {
        await close();
      }
    });

    test('an unknown customer, an invalid argument, or nothing to collect: the request is refused', async () => {
      const { client, close } = await connectTestClient(desk.app);
      try {
        await expect(client.getPrompt({ name: PROMPT, arguments: { customer: '99' } })).rejects.toThrow(/Customer 99 does not exist/);
        await expect(client.getPrompt({ name: PROMPT, arguments: { customer: 'acme' } })).rejects.toMatchObject({
          code: -32602,
          message: expect.stringMatching(/customer must be a customer id in digits/)
        });
        await expect(client.getPrompt({ name: PROMPT, arguments: { customer: '1', tone: 'rude' } })).rejects.toMatchObject({
          code: -32602,
          message: expect.stringMatching(/tone/)
        });
        await expect(client.getPrompt({ name: PROMPT, arguments: {} })).rejects.toMatchObject({ code: -32602 });
        for (const invoice of await openInvoicesOf(2)) {
          expect((await desk.app.callTool('billing.refund', { id: invoice.id }, { answers: { confirm: true } })).isError).toBeFalsy();
        }
        await expect(client.getPrompt({ name: PROMPT, arguments: { customer: '2' } })).rejects.toThrow(
          /Customer 2 \(Globex Ltd\) has no open invoices/
        );
      } finally {
        await close();
      }
    });
  });

  describe('completion', () => {
    test.each(ERAS)("completes the prompt's customer and the template's id by prefix (%s)", async (era) => {
      const { client, close } = await connectTestClient(desk.app, { era });
      try {
        const customers = await client.complete({ ref: { type: 'ref/prompt', name: PROMPT }, argument: { name: 'customer', value: '' } });
        expect(customers.completion).toEqual({ values: ['1', '2', '3', '4', '5'], total: 5, hasMore: false });
        const four = await client.complete({ ref: { type: 'ref/prompt', name: PROMPT }, argument: { name: 'customer', value: '4' } });
        expect(four.completion.values).toEqual(['4']);

        const ids = await client.complete({ ref: { type: 'ref/resource', uri: TEMPLATE }, argument: { name: 'id', value: '3' } });
        expect(ids.completion).toEqual({
          values: ['3', '30', '31', '32', '33', '34', '35', '36', '37', '38', '39'],
          total: 11,
          hasMore: false
        });
        const all = await client.complete({ ref: { type: 'ref/resource', uri: TEMPLATE }, argument: { name: 'id', value: '' } });
        expect(all.completion.values).toHaveLength(40);

        for (const value of ['9', 'x', '%']) {
          const none = await client.complete({ ref: { type: 'ref/prompt', name: PROMPT }, argument: { name: 'customer', value } });
          expect(none.completion.values).toEqual([]);
        }
        const wildcard = await client.complete({ ref: { type: 'ref/resource', uri: TEMPLATE }, argument: { name: 'id', value: '_' } });
        expect(wildcard.completion.values).toEqual([]);
      } finally {
        await close();
      }
    });
  });
});
