import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { modernRequest, openLegacySession, postRaw, responseOf, freshId, type RawAnswer } from '../test/helpers/raw-http';
import { eachDatabase, readAggregates, readInvoiceRow, textOf, useBillingApp } from './test-helpers';

/**
 * The five boundary findings, each as a regression test against the billing desk over real
 * HTTP on 127.0.0.1: answers nobody asked for, a smuggled `__proto__` answer, batches on a
 * session that forbids them, a wrong `Accept`, and `null` for optional properties. On SQLite and
 * on PostgreSQL: what must not be written is read back through the test's own connection.
 */

/** Seed invoice 2: open, 1,525.00, Umbrella Health. */
const INVOICE = 2;

eachDatabase('the billing desk at the boundary', (database) => {
  const desk = useBillingApp({ database });
  let url: URL;

  beforeEach(async () => {
    ({ url } = (await desk.app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL });
  });

  const acceptConfirm = { action: 'accept', content: { confirm: true } };

  async function callModern(params: Record<string, unknown>, rawParams?: string): Promise<RawAnswer> {
    const { body, headers } = modernRequest('tools/call', params, rawParams ? { rawParams } : {});
    return postRaw(url, body, headers);
  }

  async function refunded(): Promise<boolean> {
    return (await readInvoiceRow(desk.sql, INVOICE)).status === 'refunded';
  }

  /** A 2025-era SDK client with a session, answering elicitations with `answer`. */
  async function legacyClient(answer: (params: Record<string, unknown>) => Record<string, unknown>): Promise<Client> {
    const client = new Client({ name: 'legacy', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', (request) => answer(request.params as Record<string, unknown>) as never);
    await client.connect(new StreamableHTTPClientTransport(url));
    return client;
  }

  describe('1. answers the server never asked for do not confirm a mutation', () => {
    it('2026-07-28: a first billing.refund carrying an accepted confirmation and no requestState is asked, not refunded', async () => {
      const answer = await callModern({ name: 'billing.refund', arguments: { id: INVOICE }, inputResponses: { input: acceptConfirm } });
      const { result } = responseOf(answer);
      expect(result?.resultType).toBe('input_required');
      expect(JSON.stringify(result?.inputRequests)).toContain('Refund €1,525.00 to Umbrella Health?');
      expect(await refunded()).toBe(false);
    });

    it('2025 session: inputResponses on the call are ignored and the user is asked over the live channel', async () => {
      const asked: string[] = [];
      const client = await legacyClient((params) => {
        asked.push(String(params.message));
        return { action: 'decline' };
      });
      const result = await client.request({
        method: 'tools/call',
        params: { name: 'billing.refund', arguments: { id: INVOICE }, inputResponses: { input: acceptConfirm } }
      } as never);
      expect(textOf(result as { content?: unknown })).toBe('Refund cancelled');
      expect(asked).toEqual(['Refund €1,525.00 to Umbrella Health?']);
      expect(await refunded()).toBe(false);
      await client.close();
    });
  });

  describe('2. a prototype key does not smuggle an answer', () => {
    it('2026-07-28: with a valid requestState, an answer only under __proto__ is not an answer: asked again', async () => {
      const first = responseOf(await callModern({ name: 'billing.refund', arguments: { id: INVOICE } })).result!;
      // billing.refund's state is single-use: each retry carries the state the last answer issued.
      let state = first.requestState as string;
      for (const key of ['__proto__', 'constructor', 'prototype']) {
        const smuggled = `"inputResponses":{"${key}":{"input":${JSON.stringify(acceptConfirm)}},"x":1},"requestState":${JSON.stringify(state)}`;
        const again = responseOf(await callModern({ name: 'billing.refund', arguments: { id: INVOICE } }, smuggled));
        expect(again).toMatchObject({ result: { resultType: 'input_required' } });
        state = again.result!.requestState as string;
      }
      const inContent = `"inputResponses":{"input":{"action":"accept","content":{"__proto__":{"confirm":true}}}},"requestState":${JSON.stringify(state)}`;
      const invalid = responseOf(await callModern({ name: 'billing.refund', arguments: { id: INVOICE } }, inContent)).result!;
      expect(JSON.stringify(invalid.inputRequests)).toContain('The previous answer was invalid: confirm is required');
      expect(await refunded()).toBe(false);
    });

    it('a top-level __proto__ in tool or prompt arguments is refused (-32602) before anything runs; nested ones are invalid arguments', async () => {
      const { body, headers } = modernRequest(
        'tools/call',
        { name: 'billing.refund' },
        { rawParams: `"arguments":{"id":${INVOICE},"__proto__":{"id":1}}` }
      );
      const top = await postRaw(url, body, headers);
      expect(top.status).toBe(400);
      expect(responseOf(top).error).toMatchObject({ code: -32602, message: expect.stringContaining('__proto__') });
      const prompt = modernRequest(
        'prompts/get',
        { name: 'billing.collections_letter' },
        { rawParams: '"arguments":{"customer":"1","__proto__":{"tone":"firm"}}' }
      );
      expect(responseOf(await postRaw(url, prompt.body, prompt.headers)).error).toMatchObject({ code: -32602 });
      const nested = responseOf(
        await callModern({ name: 'billing.list', arguments: JSON.parse('{"constructor":{"x":1}}') as object })
      ).result!;
      expect(nested.isError).toBe(true);
      expect(textOf(nested as { content?: unknown })).toContain('constructor: property name constructor is not allowed');
      expect(await refunded()).toBe(false);
    });

    it('2025 session: an elicitation answer whose confirm hides under __proto__ is invalid and asked again', async () => {
      const asked: string[] = [];
      const client = await legacyClient((params) => {
        asked.push(String(params.message));
        return asked.length === 1
          ? (JSON.parse('{"action":"accept","content":{"__proto__":{"confirm":true}}}') as Record<string, unknown>)
          : { action: 'decline' };
      });
      const result = await client.callTool({ name: 'billing.refund', arguments: { id: INVOICE } });
      expect(textOf(result)).toBe('Refund cancelled');
      expect(asked).toHaveLength(2);
      expect(asked[1]).toMatch(/^The previous answer was invalid: confirm is required\. Refund/);
      expect(await refunded()).toBe(false);
      await client.close();
    });
  });

  describe('3. JSON-RPC batches on sessions at 2025-06-18 or later are refused, none of it executed', () => {
    it.each(['2025-06-18', '2025-11-25'])('session at %s: HTTP 400, -32600, and the batched rebuild did not run', async (version) => {
      const headers = await openLegacySession(url, version);
      const before = await readAggregates(desk.sql);
      const batch = [
        { jsonrpc: '2.0', id: freshId(), method: 'tools/list' },
        { jsonrpc: '2.0', id: freshId(), method: 'tools/call', params: { name: 'reports.rebuild', arguments: {} } }
      ];
      const answer = await postRaw(url, batch, headers);
      expect(answer.status).toBe(400);
      expect(answer.messages).toHaveLength(1);
      expect(answer.messages[0]).toMatchObject({ error: { code: -32600 } });
      expect(String((answer.messages[0].error as { message: string }).message)).toContain('batches are not allowed');
      expect(await readAggregates(desk.sql)).toEqual(before);
      // The session still serves single messages.
      const single = await postRaw(url, { jsonrpc: '2.0', id: freshId(), method: 'tools/list' }, headers);
      expect(responseOf(single).result?.tools).toBeDefined();
    });

    it('without a session, the MCP-Protocol-Version header decides: a 2025-11-25 batch is refused', async () => {
      const answer = await postRaw(url, [{ jsonrpc: '2.0', id: freshId(), method: 'tools/list' }], {
        'mcp-protocol-version': '2025-11-25'
      });
      expect(answer.status).toBe(400);
      expect(answer.messages[0]).toMatchObject({ error: { code: -32600 } });
    });
  });

  describe('4. Accept is checked on both eras', () => {
    it.each(['text/html', 'image/png', 'application/xml, text/plain;q=0.9', 'application/json;q=0'])(
      '2026-07-28: Accept %s gets 406 and nothing runs',
      async (accept) => {
        const { body, headers } = modernRequest('tools/call', { name: 'billing.list', arguments: {} });
        const answer = await postRaw(url, body, { ...headers, accept });
        expect(answer.status).toBe(406);
        expect(answer.messages[0]).toMatchObject({ error: { code: -32000 } });
      }
    );

    it('2026-07-28: */*, application/*, application/json alone, and no Accept at all are served', async () => {
      for (const accept of ['*/*', 'application/*', 'application/json', 'text/event-stream']) {
        const { body, headers } = modernRequest('tools/list', {});
        const answer = await postRaw(url, body, { ...headers, accept });
        expect(answer.status).toBe(200);
      }
      const { body, headers } = modernRequest('tools/list', {});
      const res = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
      // fetch itself sends Accept: */* when none is given
      expect(res.status).toBe(200);
      await res.body?.cancel();
    });

    it('2025 era: an initialize with Accept text/html gets 406 and opens no session', async () => {
      const answer = await postRaw(
        url,
        {
          jsonrpc: '2.0',
          id: freshId(),
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } }
        },
        { accept: 'text/html' }
      );
      expect(answer.status).toBe(406);
      expect(answer.headers.get('mcp-session-id')).toBeNull();
    });
  });

  describe('5. null is refused where the listed inputSchema does not allow it', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['billing.list', { status: null }, 'status'],
      ['billing.list', { customer: null }, 'customer'],
      ['billing.list', { limit: null }, 'limit'],
      ['reports.rebuild', { throttleMs: null }, 'throttleMs']
    ];

    it.each(cases)('2026-07-28: %s %j is an isError result naming the property', async (name, args, property) => {
      const before = await readAggregates(desk.sql);
      const { result } = responseOf(await callModern({ name, arguments: args }));
      expect(result?.isError).toBe(true);
      expect(textOf(result as { content?: unknown })).toBe(
        `Invalid arguments for tool ${name}:\n- ${property}: ${property} must not be null (leave it out instead)`
      );
      expect(await readAggregates(desk.sql)).toEqual(before);
    });

    it('2025 session: the same refusals', async () => {
      const client = await legacyClient(() => ({ action: 'decline' }));
      for (const [name, args, property] of cases) {
        const result = await client.callTool({ name, arguments: args });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain(`${property} must not be null`);
      }
      await client.close();
    });

    it('the listed schema and the refusal agree: each of those properties is listed without null', async () => {
      const { result } = responseOf(
        await postRaw(url, ...(Object.values(modernRequest('tools/list', {})) as [string, Record<string, string>]))
      );
      const tools = result?.tools as Array<{ name: string; inputSchema: { properties: Record<string, { type?: unknown }> } }>;
      for (const [name, , property] of cases) {
        const listed = tools.find((t) => t.name === name)!.inputSchema.properties[property];
        expect(JSON.stringify(listed)).not.toContain('null');
      }
    });
  });
});
