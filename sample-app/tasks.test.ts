import { setImmediate as turn } from 'node:timers/promises';
import type { FusionApp } from '@mcpfusion/core';
import { modernRequest, postRaw, responseOf } from '../test/helpers/raw-http';
import { createBillingApp } from './app';
import { aggregates, inspect, TEST_STATE_KEY, tempDb, type TempDb } from './test-helpers';

/** The billing desk's tasks (the 2026-07-28 tasks extension) over real HTTP, as a client with the extension sees them. */
const WITH_TASKS = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } };

describe('the billing desk as a tasks server', () => {
  let db: TempDb;
  let app: FusionApp;
  let url: URL;
  beforeEach(async () => {
    db = tempDb();
    app = createBillingApp({ dbPath: db.path, stateKey: TEST_STATE_KEY });
    ({ url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL });
  });
  afterEach(async () => {
    await app.close();
    db.remove();
  });

  async function call(method: string, params: Record<string, unknown>) {
    const { body, headers } = modernRequest(method, params, { capabilities: WITH_TASKS });
    const taskHeader: Record<string, string> = typeof params.taskId === 'string' ? { 'mcp-name': params.taskId } : {};
    return responseOf(await postRaw(url, body, { ...headers, ...taskHeader }));
  }
  /** Invoices the seed left refundable (not refunded yet). */
  const refundable = (): number[] => {
    const disk = inspect(db.path);
    try {
      return (disk.prepare("SELECT id FROM invoices WHERE status <> 'refunded' ORDER BY id").all() as Array<{ id: number }>).map(
        (r) => r.id
      );
    } finally {
      disk.close();
    }
  };
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
    const disk = inspect(db.path);
    try {
      const before = aggregates(disk);
      const created = (await call('tools/call', { name: 'reports.rebuild', arguments: { throttleMs: 50 } })).result as { taskId: string };
      await until(created.taskId, (view) => typeof view.statusMessage === 'string');
      expect((await call('tasks/cancel', { taskId: created.taskId })).result).toMatchObject({ resultType: 'complete' });
      expect((await task(created.taskId)).status).toBe('cancelled');
      // The mutation lock is free at once: a refund (another mutation) runs now, synchronously.
      const refund = await app.callTool('billing.refund', { id: refundable()[0] }, { answers: { confirm: true } });
      expect(refund.isError).toBeFalsy();
      expect(aggregates(disk)).toEqual(before);
      expect((await task(created.taskId)).status).toBe('cancelled');
    } finally {
      disk.close();
    }
  });

  it('billing.refund is a task at once: the confirmation comes through tasks/update, and the refund is written once', async () => {
    const disk = inspect(db.path);
    try {
      const [id] = refundable();
      const status = () => (disk.prepare('SELECT status FROM invoices WHERE id = ?').get(id) as { status: string }).status;
      expect(status()).not.toBe('refunded');
      const created = (await call('tools/call', { name: 'billing.refund', arguments: { id } })).result as {
        taskId: string;
        resultType: string;
      };
      expect(created.resultType).toBe('task');
      const asking = await until(created.taskId, (view) => view.status === 'input_required');
      const [key] = Object.keys(asking.inputRequests as object);
      expect((asking.inputRequests as Record<string, { params: { message: string } }>)[key].params.message).toMatch(/^Refund \$/);
      expect(status()).not.toBe('refunded');
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
      expect(status()).toBe('refunded');
      // A re-issued tasks/update with the same answers (its stream broke) is harmless, and answers as the first did.
      const reissued = await call('tasks/update', {
        taskId: created.taskId,
        inputResponses: { [key]: { action: 'accept', content: { confirm: true } } }
      });
      expect(reissued.result).toMatchObject({ resultType: 'complete' });
      expect((await task(created.taskId)).status).toBe('completed');
      expect(status()).toBe('refunded');
    } finally {
      disk.close();
    }
  });

  it('the harness follows the same task to its end (asTask)', async () => {
    const statuses: string[] = [];
    const [id] = refundable();
    const result = await app.callTool(
      'billing.refund',
      { id },
      { asTask: true, answers: { confirm: true }, onTask: (t) => statuses.push(t.status) }
    );
    expect(result).toMatchObject({ structuredContent: { id, status: 'refunded' } });
    expect(statuses).toContain('input_required');
    expect(statuses.at(-1)).toBe('completed');
  });

  it('without the extension the refund is asked and answered in the request, as before', async () => {
    const { body, headers } = modernRequest('tools/call', { name: 'billing.refund', arguments: { id: refundable()[0] } });
    const first = responseOf(await postRaw(url, body, headers)).result as { resultType: string };
    expect(first.resultType).toBe('input_required');
  });
});
