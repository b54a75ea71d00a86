import { once } from 'node:events';
import { connect } from 'node:net';
import { join } from 'node:path';
import { connectRedis } from '../src/redis';
import { ChildServers } from '../test/helpers/child-servers';
import { acceptAll as accept, callInstance as call, refundThroughBoth } from './scenarios';
import { startRedis, testWithRedis, type RedisServer } from '../test/helpers/redis-server';
import { modernRequest, openLegacySession, postRaw, rawRequestText, responseOf, streamText } from '../test/helpers/raw-http';
import { inspect, TEST_STATE_KEY, tempDb, type TempDb } from './test-helpers';

/**
 * Two billing-desk instances as child processes, one real redis-server and one SQLite file:
 * the fleet behaves like one server.
 */
const MAIN = join(__dirname, '..', 'build', 'sample-app', 'main.js');
const LISTENING = /billing-desk listening on (\S+) \(pid \d+\), .*one instance of a fleet \(Redis\)/;

let redis: RedisServer;
let db: TempDb;
const servers = new ChildServers();

const instance = (): Promise<URL> =>
  servers.start([MAIN], { PORT: '0', BILLING_DB: db.path, FUSION_STATE_KEY: TEST_STATE_KEY, REDIS_URL: redis.url }, LISTENING);

/** Two instances on one file: the first creates and seeds it, then the second opens it. */
async function twoInstances(): Promise<[URL, URL]> {
  const a = await instance();
  const b = await instance();
  return [a, b];
}

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
});
beforeEach(() => {
  db = tempDb();
});
afterEach(async () => {
  await servers.stopAll();
  db.remove();
});

/** The ids of the first `count` invoices not refunded yet, in id order. */
function refundable(disk: ReturnType<typeof inspect>, count = 1): number[] {
  return (disk.prepare("SELECT id FROM invoices WHERE status <> 'refunded' ORDER BY id LIMIT ?").all(count) as Array<{ id: number }>).map(
    (row) => row.id
  );
}

/** An invoice's status as the file holds it. */
function statusOf(disk: ReturnType<typeof inspect>, id: number): string {
  return (disk.prepare('SELECT status FROM invoices WHERE id = ?').get(id) as { status: string }).status;
}



testWithRedis('an MRTR round started on one instance completes on the other; re-issued on the first it gets the same result, replayed with another answer it is refused', async () => {
  const [a, b] = await twoInstances();
  const disk = inspect(db.path);
  try {
    const [id] = refundable(disk);
    const asked = (await call(a, { name: 'billing.refund', arguments: { id } })).result as { requestState: string; inputRequests: object };
    const answer = {
      name: 'billing.refund',
      arguments: { id },
      requestState: asked.requestState,
      inputResponses: accept(asked.inputRequests)
    };
    const done = await call(b, answer);
    expect((done.result as { isError?: boolean }).isError).toBeFalsy();
    // The same round re-issued on the first instance (a client whose stream broke): the same result, nothing runs again.
    const reissued = await call(a, answer);
    expect(reissued.result).toEqual(done.result);
    // The state replayed with another answer: refused there, as a replay.
    const replay = await call(a, { ...answer, inputResponses: { [Object.keys(asked.inputRequests)[0]]: { action: 'decline' } } });
    expect(replay.error?.code).toBe(-32602);
    expect(statusOf(disk, id)).toBe('refunded');
  } finally {
    disk.close();
  }
}, 60_000);

testWithRedis('concurrent confirmed refunds of one invoice through both instances: refunded exactly once', async () => {
  const [a, b] = await twoInstances();
  const disk = inspect(db.path);
  try {
    const [id] = refundable(disk);
    // Two separate confirmations (two questions asked, two answers), sent at once to two instances.
    const results = await refundThroughBoth([a, b], id);
    expect(results.filter((r) => !r.isError)).toHaveLength(1);
    expect(results.filter((r) => r.isError && /already refunded/.test(r.content[0].text))).toHaveLength(1);
    const adjustments = disk.prepare("SELECT count(*) AS n FROM invoices WHERE id = ? AND status = 'refunded'").get(id) as { n: number };
    expect(adjustments.n).toBe(1);
  } finally {
    disk.close();
  }
}, 60_000);

testWithRedis('a resources/updated after a refund on one instance reaches a 2026 listen stream on the other', async () => {
  const [a, b] = await twoInstances();
  const disk = inspect(db.path);
  try {
    const [id] = refundable(disk);
    const uri = `billing://invoices/${id}`;
    const { body, headers } = modernRequest('subscriptions/listen', { notifications: { resourceSubscriptions: [uri] } });
    const res = await fetch(b, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body
    });
    const stream = streamText(res);
    await stream.until('notifications/subscriptions/acknowledged');
    const asked = (await call(a, { name: 'billing.refund', arguments: { id } })).result as { requestState: string; inputRequests: object };
    await call(a, {
      name: 'billing.refund',
      arguments: { id },
      requestState: asked.requestState,
      inputResponses: accept(asked.inputRequests)
    });
    expect(await stream.until('notifications/resources/updated')).toContain(uri);
    await stream.cancel();
  } finally {
    disk.close();
  }
}, 60_000);

const WITH_TASKS = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } };

async function taskCall(url: URL, method: string, params: Record<string, unknown>) {
  const { body, headers } = modernRequest(method, params, { capabilities: WITH_TASKS });
  const routing: Record<string, string> = typeof params.taskId === 'string' ? { 'mcp-name': params.taskId } : {};
  return responseOf(await postRaw(url, body, { ...headers, ...routing }));
}

testWithRedis('a task created on one instance is polled and cancelled through the other; the run on the first stops and rolls back', async () => {
  const [a, b] = await twoInstances();
  const disk = inspect(db.path);
  try {
    const before = disk.prepare('SELECT count(*) AS n FROM monthly_aggregates').get() as { n: number };
    const created = (await taskCall(a, 'tools/call', { name: 'reports.rebuild', arguments: { throttleMs: 200 } })).result as {
      taskId: string;
      resultType: string;
    };
    expect(created.resultType).toBe('task');
    expect(((await taskCall(b, 'tasks/get', { taskId: created.taskId })).result as { status: string }).status).toBe('working');
    expect((await taskCall(b, 'tasks/cancel', { taskId: created.taskId })).result).toMatchObject({ resultType: 'complete' });
    expect(((await taskCall(a, 'tasks/get', { taskId: created.taskId })).result as { status: string }).status).toBe('cancelled');
    // The run on the first instance was aborted there: the lock is free for a refund through the second at once.
    const [id] = refundable(disk);
    const asked = (await call(b, { name: 'billing.refund', arguments: { id } })).result as { requestState: string; inputRequests: object };
    const done = await call(b, {
      name: 'billing.refund',
      arguments: { id },
      requestState: asked.requestState,
      inputResponses: accept(asked.inputRequests)
    });
    expect((done.result as { isError?: boolean }).isError).toBeFalsy();
    expect(disk.prepare('SELECT count(*) AS n FROM monthly_aggregates').get()).toEqual(before);
  } finally {
    disk.close();
  }
}, 60_000);

testWithRedis('the holder killed with SIGKILL mid-mutation: a mutation on the other instance runs within the lease bound, and the killed transaction left nothing', async () => {
  const [a, b] = await twoInstances();
  const disk = inspect(db.path);
  try {
    const before = disk.prepare('SELECT count(*) AS n FROM monthly_aggregates').get() as { n: number };
    // A long rebuild on the first instance (it holds the fleet's mutation lock and a write transaction).
    const { body, headers } = modernRequest('tools/call', { name: 'reports.rebuild', arguments: { throttleMs: 1000 } });
    const rebuilding = postRaw(a, body, headers).catch(() => undefined);
    const [holder] = servers.all;
    // Wait until it holds the lock (its lease key exists in Redis), then kill it outright.
    const probe = await connectRedis(redis.url);
    try {
      while ((await probe.client.exists('{mcpfusion:mutation}:holder')) === 0) await new Promise((resolve) => setImmediate(resolve));
    } finally {
      await probe.close();
    }
    holder.kill('SIGKILL');
    await once(holder, 'exit');
    await rebuilding;
    const [id] = refundable(disk);
    const started = Date.now();
    const asked = (await call(b, { name: 'billing.refund', arguments: { id } })).result as { requestState: string; inputRequests: object };
    const done = await call(b, {
      name: 'billing.refund',
      arguments: { id },
      requestState: asked.requestState,
      inputResponses: accept(asked.inputRequests)
    });
    expect((done.result as { isError?: boolean }).isError).toBeFalsy();
    // The lease (5 s) plus one poll: the bound the README states.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(disk.prepare('SELECT count(*) AS n FROM monthly_aggregates').get()).toEqual(before);
  } finally {
    disk.close();
  }
}, 40_000);

testWithRedis('a resources/updated after a refund on one instance reaches a 2025-era session subscribed on the other', async () => {
  const [a, b] = await twoInstances();
  const disk = inspect(db.path);
  try {
    const [id] = refundable(disk);
    const uri = `billing://invoices/${id}`;
    // A 2025-era session on the second instance, subscribed to the invoice, with its standalone GET stream open.
    const session = await openLegacySession(b, '2025-06-18');
    expect(
      responseOf(await postRaw(b, { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri } }, session)).result
    ).toBeDefined();
    const opened = await fetch(b, { headers: { accept: 'text/event-stream', ...session } });
    expect(opened.status).toBe(200);
    const stream = streamText(opened);
    // The refund on the first instance.
    const asked = (await call(a, { name: 'billing.refund', arguments: { id } })).result as { requestState: string; inputRequests: object };
    await call(a, {
      name: 'billing.refund',
      arguments: { id },
      requestState: asked.requestState,
      inputResponses: accept(asked.inputRequests)
    });
    expect(await stream.until('notifications/resources/updated')).toContain(uri);
    await stream.cancel();
  } finally {
    disk.close();
  }
}, 60_000);

testWithRedis('tasks/update on one instance races tasks/cancel on the other: the final status always agrees with whether the refund happened (10 rounds)', async () => {
  const [a, b] = await twoInstances();
  const disk = inspect(db.path);
  const refunded = (id: number) => statusOf(disk, id) === 'refunded';
  const outcomes: string[] = [];
  try {
    const ids = refundable(disk, 10);
    for (const id of ids) {
      const created = (await taskCall(a, 'tools/call', { name: 'billing.refund', arguments: { id } })).result as { taskId: string };
      let view: Record<string, unknown> = {};
      while (view.status !== 'input_required') view = (await taskCall(b, 'tasks/get', { taskId: created.taskId })).result ?? {};
      const [key] = Object.keys(view.inputRequests as object);
      // The confirmation to one instance, the cancel to the other, at once.
      await Promise.all([
        taskCall(a, 'tasks/update', {
          taskId: created.taskId,
          inputResponses: { [key]: { action: 'accept', content: { confirm: true } } }
        }),
        taskCall(b, 'tasks/cancel', { taskId: created.taskId })
      ]);
      let final: Record<string, unknown> = {};
      while (final.status === undefined || final.status === 'working' || final.status === 'input_required') {
        final = (await taskCall(a, 'tasks/get', { taskId: created.taskId })).result ?? {};
      }
      outcomes.push(String(final.status));
      if (final.status === 'cancelled') expect(refunded(id)).toBe(false);
      else {
        expect(final.status).toBe('completed');
        expect((final.result as { isError?: boolean }).isError).toBeFalsy();
        expect(refunded(id)).toBe(true);
      }
    }
    process.stderr.write(`update/cancel races: ${outcomes.join(', ')}\n`);
  } finally {
    disk.close();
  }
}, 120_000);

testWithRedis('exactly once across instances: the confirming round sent to one instance, its stream cut at once, re-issued to the other: one refund and a successful result, every time', async () => {
  const [a, b] = await twoInstances();
  const disk = inspect(db.path);
  try {
    const ids = refundable(disk, 5);
    for (const id of ids) {
      const asked = (await call(a, { name: 'billing.refund', arguments: { id } })).result as {
        requestState: string;
        inputRequests: object;
      };
      const round = {
        name: 'billing.refund',
        arguments: { id },
        requestState: asked.requestState,
        inputResponses: accept(asked.inputRequests)
      };
      // The first attempt on A: its connection is gone as soon as the request is written (a broken stream).
      const { body, headers } = modernRequest('tools/call', round);
      await new Promise<void>((resolve) => {
        const socket = connect(Number(a.port), '127.0.0.1', () => {
          socket.write(rawRequestText({ target: '/mcp', hostLines: [a.host], headers, body }), () => {
            socket.destroy();
            resolve();
          });
        });
        socket.on('error', () => resolve());
      });
      // The client re-issues the round, with a new id, to the other instance.
      const again = await call(b, round);
      expect(again.error).toBeUndefined();
      expect(again.result).toMatchObject({ structuredContent: { id, status: 'refunded' } });
      expect((disk.prepare('SELECT count(*) AS n FROM invoices WHERE id = ? AND status = ?').get(id, 'refunded') as { n: number }).n).toBe(
        1
      );
    }
  } finally {
    disk.close();
  }
}, 120_000);

testWithRedis('2025-era: a session stream cut after the refund is resumed on the other instance with Last-Event-ID, and delivers the result once', async () => {
  const [a, b] = await twoInstances();
  const disk = inspect(db.path);
  try {
    const [id] = refundable(disk);
    // A 2025-11-25 session on A, with elicitation (the refund asks on the call's own stream).
    const init = await postRaw(a, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'raw', version: '1' } }
    });
    const session = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    await postRaw(a, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    const called = await fetch(a, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 77, method: 'tools/call', params: { name: 'billing.refund', arguments: { id } } })
    });
    const stream = streamText(called);
    const seen = await stream.until('elicitation/create');
    const question = /event: message\nid: (\S+)\ndata: (\{.*"elicitation\/create".*\})/.exec(seen);
    expect(question).not.toBeNull();
    const [, lastEventId, data] = question!;
    const asked = JSON.parse(data) as { id: number | string };
    // The user says yes; then the stream breaks before the result is read.
    await postRaw(a, { jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { confirm: true } } }, session);
    await stream.cancel();
    while (statusOf(disk, id) !== 'refunded') await new Promise((resolve) => setImmediate(resolve));
    // A stores the result in the fleet's event store a little after the row commits; a GET before that replays
    // only the events stored so far. Wait for the stored result, then check that it is replayed once.
    const [scope, streamKey] = lastEventId.split('|');
    const probe = await connectRedis(redis.url);
    try {
      const key = `{mcpfusion:events}:stream:${scope}:${streamKey}`;
      while (!(await probe.client.lRange(key, 0, -1)).some((entry) => entry.includes('"id":77'))) {
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      await probe.close();
    }
    // The client reconnects to the other instance (a balancer sent it there) with the last event it saw.
    const resumed = await fetch(b, { method: 'GET', headers: { accept: 'text/event-stream', ...session, 'last-event-id': lastEventId } });
    expect(resumed.status).toBe(200);
    const replayed = await resumed.text();
    const results = replayed.split('\n').filter((line) => line.startsWith('data:') && line.includes('"id":77'));
    expect(results).toHaveLength(1);
    expect(JSON.parse(results[0].slice(5)) as object).toMatchObject({ id: 77, result: { structuredContent: { id, status: 'refunded' } } });
    expect((disk.prepare('SELECT count(*) AS n FROM invoices WHERE id = ? AND status = ?').get(id, 'refunded') as { n: number }).n).toBe(1);
    // The event belongs to this session: presented under another session id, it is not replayed.
    const foreign = await fetch(b, {
      method: 'GET',
      headers: { accept: 'text/event-stream', ...session, 'mcp-session-id': 'not-this-session', 'last-event-id': lastEventId }
    });
    expect(foreign.status).toBe(404);
  } finally {
    disk.close();
  }
}, 60_000);
