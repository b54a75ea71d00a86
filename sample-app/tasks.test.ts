import { setImmediate as turn } from 'node:timers/promises';
import { modernRequest, postRaw, responseOf } from '../test/helpers/raw-http';
import { eachDatabase, readAggregates, readInvoiceRow, useBillingApp } from './test-helpers';

/** The billing desk's tasks (the 2026-07-28 tasks extension) over real HTTP, as a client with the extension sees them. */
const WITH_TASKS = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } };

// On SQLite the task records are in the database file (SqliteTaskStore); on PostgreSQL alone, in memory.
eachDatabase('the billing desk as a tasks server', (database) => {
  const desk = useBillingApp({ database });
  let url: URL;
  beforeEach(async () => {
    ({ url } = (await desk.app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL });
  });

  async function call(method: string, params: Record<string, unknown>) {
    const { body, headers } = modernRequest(method, params, { capabilities: WITH_TASKS });
    const taskHeader: Record<string, string> = typeof params.taskId === 'string' ? { 'mcp-name': params.taskId } : {};
    return responseOf(await postRaw(url, body, { ...headers, ...taskHeader }));
  }
  /** Invoices the seed left refundable (not refunded yet). */
  const refundable = async (): Promise<number[]> =>
    (await desk.sql.all<{ id: number }>("SELECT id FROM invoices WHERE status <> 'refunded' ORDER BY id")).map((r) => r.id);
  const task = async (taskId: string) => (await call('tasks/get', { taskId })).result as Record<string, unknown>;
  async function until(taskId: string, done: (view: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    for (let i = 0; i < 5000; i++) {
      const view = await task(taskId);
      if (done(view)) return view;
      await turn();
    }
    throw new Error(`task ${taskId} never reached the expected state`);
  }

  it('reports.rebuild is a task: progress on tasks/get, then the summary inlined', async () => {
    const created = (await call('tools/call', { name: 'reports.rebuild', arguments: { throttleMs: 5 } })).result as Record<string, unknown>;
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 24 * 3_600_000 });
    const taskId = created.taskId as string;
    const progressed = await until(
      taskId,
      (view) => typeof view.statusMessage === 'string' && /^month \d+ of \d+$/.test(view.statusMessage as string)
    );
    expect(progressed.status).toBe('working');
    const done = await until(taskId, (view) => view.status !== 'working');
    expect(done.status).toBe('completed');
    expect((done.result as { structuredContent: unknown }).structuredContent).toEqual({
      months: 24,
      invoices: 40,
      rebuiltAt: expect.any(String)
    });
  });

  it('tasks/cancel stops a rebuild: the transaction is rolled back and the table is as it was', async () => {
    const before = await readAggregates(desk.sql);
    const created = (await call('tools/call', { name: 'reports.rebuild', arguments: { throttleMs: 50 } })).result as { taskId: string };
    await until(created.taskId, (view) => typeof view.statusMessage === 'string');
    expect((await call('tasks/cancel', { taskId: created.taskId })).result).toMatchObject({ resultType: 'complete' });
    expect((await task(created.taskId)).status).toBe('cancelled');
    // The mutation lock is free at once: a refund (another mutation) runs now, synchronously.
    const refund = await desk.app.callTool('billing.refund', { id: (await refundable())[0] }, { answers: { confirm: true } });
    expect(refund.isError).toBeFalsy();
    expect(await readAggregates(desk.sql)).toEqual(before);
    expect((await task(created.taskId)).status).toBe('cancelled');
  });

  it('billing.refund is a task at once: the confirmation comes through tasks/update, and the refund is written once', async () => {
    const [id] = await refundable();
    const status = async () => (await readInvoiceRow(desk.sql, id!)).status;
    expect(await status()).not.toBe('refunded');
    const created = (await call('tools/call', { name: 'billing.refund', arguments: { id } })).result as {
      taskId: string;
      resultType: string;
    };
    expect(created.resultType).toBe('task');
    const asking = await until(created.taskId, (view) => view.status === 'input_required');
    const [key] = Object.keys(asking.inputRequests as object);
    expect((asking.inputRequests as Record<string, { params: { message: string } }>)[key].params.message).toMatch(/^Refund €/);
    expect(await status()).not.toBe('refunded');
    expect(
      (
        await call('tasks/update', {
          taskId: created.taskId,
          inputResponses: { [key]: { action: 'accept', content: { confirm: true } } }
        })
      ).result
    ).toMatchObject({
      resultType: 'complete'
    });
    const done = await until(created.taskId, (view) => view.status !== 'working');
    expect(done.status).toBe('completed');
    expect(await status()).toBe('refunded');
    // A re-issued tasks/update with the same answers (its stream broke) is harmless, and answers as the first did.
    const reissued = await call('tasks/update', {
      taskId: created.taskId,
      inputResponses: { [key]: { action: 'accept', content: { confirm: true } } }
    });
    expect(reissued.result).toMatchObject({ resultType: 'complete' });
    expect((await task(created.taskId)).status).toBe('completed');
    expect(await status()).toBe('refunded');
  });

  it('the harness follows the same task to its end (asTask)', async () => {
    const statuses: string[] = [];
    const [id] = await refundable();
    const result = await desk.app.callTool(
      'billing.refund',
      { id },
      { asTask: true, answers: { confirm: true }, onTask: (t) => statuses.push(t.status) }
    );
    expect(result).toMatchObject({ structuredContent: { id, status: 'refunded' } });
    expect(statuses).toContain('input_required');
    expect(statuses.at(-1)).toBe('completed');
  });

  it('without the extension the refund is asked and answered in the request, as before', async () => {
    const { body, headers } = modernRequest('tools/call', { name: 'billing.refund', arguments: { id: (await refundable())[0] } });
    const first = responseOf(await postRaw(url, body, headers)).result as { resultType: string };
    expect(first.resultType).toBe('input_required');
  });
});
