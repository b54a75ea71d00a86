import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FusionApp, jwtVerifier, type FusionAppOptions } from '../../src';
import { AUDIENCE, ISSUER, jwksOf, mintToken, signingKey, type SigningKey } from '../helpers/auth-fixtures';
import { modernRequest, postRaw, responseOf } from '../helpers/raw-http';
import { until } from '../helpers/wire-log';
import { Gates, TaskLedger, TaskTools } from '../fixtures/task-tools';

/**
 * Tasks (the 2026-07-28 extension `io.modelcontextprotocol/tasks`) over real HTTP on
 * 127.0.0.1, in raw JSON-RPC: a call that waits becomes a task, `tasks/get` follows it,
 * `tasks/update` answers its questions, `tasks/cancel` ends it; tasks are bound to their
 * caller, expire, are limited in number, and a SQLite store keeps them across a restart.
 * The fixture tools wait on gates the test opens; states are awaited by polling `tasks/get`
 * one event-loop turn apart, never by sleeping.
 */

const TASKS = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = { elicitation: { form: {} }, extensions: { [TASKS]: {} } };
const WITHOUT_TASKS = { elicitation: { form: {} } };
const NOT_FOUND = 'Failed to retrieve task: Task not found';

type Task = Record<string, unknown> & { taskId: string; status: string; statusMessage?: string };
interface Answer {
  readonly status: number;
  readonly result?: Record<string, unknown>;
  readonly error?: { code: number; message: string };
}

/** One 2026-07-28 request; a `tasks/*` request names its task in `mcp-name` (the server checks it). */
async function rpc(url: URL, method: string, params: Record<string, unknown>, options: { tasks?: boolean; bearer?: string } = {}) {
  const { body, headers } = modernRequest(method, params, { capabilities: options.tasks === false ? WITHOUT_TASKS : WITH_TASKS });
  const answer = await postRaw(url, body, {
    ...headers,
    ...(typeof params.taskId === 'string' ? { 'mcp-name': params.taskId } : {}),
    ...(options.bearer ? { authorization: `Bearer ${options.bearer}` } : {})
  });
  return { status: answer.status, ...responseOf(answer) } as Answer;
}

/** A client of one endpoint, as one caller (a bearer token, or none). */
function clientOf(url: URL, bearer?: string) {
  return {
    call: (name: string, args: Record<string, unknown>, tasks = true) =>
      rpc(url, 'tools/call', { name, arguments: args }, { tasks, bearer }),
    get: (taskId: string, tasks = true) => rpc(url, 'tasks/get', { taskId }, { tasks, bearer }),
    update: (taskId: string, inputResponses: Record<string, unknown>) => rpc(url, 'tasks/update', { taskId, inputResponses }, { bearer }),
    cancel: (taskId: string) => rpc(url, 'tasks/cancel', { taskId }, { bearer })
  };
}
type TaskClient = ReturnType<typeof clientOf>;

/** The task a call became (fails when it was answered otherwise). */
async function startTask(client: TaskClient, name: string, args: Record<string, unknown>): Promise<Task> {
  const answer = await client.call(name, args);
  if (answer.result?.resultType !== 'task') throw new Error(`${name} was not made a task: ${JSON.stringify(answer)}`);
  return answer.result as Task;
}

/** The task as `tasks/get` shows it (fails on an error). */
async function taskOf(client: TaskClient, taskId: string): Promise<Task> {
  const answer = await client.get(taskId);
  if (!answer.result) throw new Error(`tasks/get failed: ${JSON.stringify(answer.error)}`);
  return answer.result as Task;
}

/** Polls `tasks/get`, one event-loop turn between polls, until `done` holds. */
async function pollTask(client: TaskClient, taskId: string, done: (task: Task) => boolean, what: string, maxPolls = 2000): Promise<Task> {
  let task: Task | undefined;
  for (let i = 0; i < maxPolls; i++) {
    task = await taskOf(client, taskId);
    if (done(task)) return task;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`gave up waiting for ${what}; last seen: ${JSON.stringify(task)}`);
}

const hasStatus = (status: string) => (task: Task) => task.status === status;
const textOf = (result: unknown) => ((result as { content: Array<{ text: string }> }).content[0] ?? { text: undefined }).text;
const inputKeys = (task: Task) => Object.keys((task.inputRequests as Record<string, unknown>) ?? {});

/** An answer to the refund's confirmation (`content` as the client sends it). */
const accept = (confirm: unknown) => ({ action: 'accept', content: { confirm } });

interface Started {
  readonly app: FusionApp;
  readonly url: URL;
  readonly gates: Gates;
  readonly ledger: TaskLedger;
  readonly client: TaskClient;
}

const apps: FusionApp[] = [];

async function startApp(options: Partial<FusionAppOptions> = {}): Promise<Started> {
  const gates = new Gates();
  const ledger = new TaskLedger();
  const app = FusionApp.create({
    tools: [TaskTools],
    providers: [
      { provide: Gates, useValue: gates },
      { provide: TaskLedger, useValue: ledger }
    ],
    stateKey: 'k'.repeat(32),
    ...options
  });
  apps.push(app);
  const { url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL };
  return { app, url, gates, ledger, client: clientOf(url) };
}

afterEach(async () => {
  jest.restoreAllMocks();
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

describe('tasks: lifecycle', () => {
  it('a call that waits becomes a task: a flat CreateTaskResult, working with its progress message, then completed with the result inlined', async () => {
    const { client, gates } = await startApp();
    const created = await startTask(client, 'job.progress', { gate: 'p' });
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 3_600_000, pollIntervalMs: 1_000 });
    expect(created.taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(created.createdAt as string).toISOString()).toBe(created.createdAt);
    expect(new Date(created.lastUpdatedAt as string).toISOString()).toBe(created.lastUpdatedAt);
    for (const key of ['task', 'result', 'requestState', 'inputRequests', 'error', 'isError', 'structuredContent']) {
      expect(created).not.toHaveProperty(key);
    }

    const working = await pollTask(client, created.taskId, (task) => task.statusMessage === 'half', 'the progress message');
    expect(working).toMatchObject({ resultType: 'complete', taskId: created.taskId, status: 'working', statusMessage: 'half' });
    expect(working).not.toHaveProperty('result');

    gates.get('p').release();
    const done = await pollTask(client, created.taskId, hasStatus('completed'), 'completion');
    expect(done).toMatchObject({ resultType: 'complete', status: 'completed', statusMessage: 'Completed' });
    expect(done.result).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'done after half' }] });
    expect(done.createdAt).toBe(created.createdAt);
    expect(done).not.toHaveProperty('error');
  });

  it('through toolSearch: a tool called with call_tool becomes a task of its own, completed with its result', async () => {
    const { client, gates } = await startApp({ toolSearch: true });
    const created = await startTask(client, 'call_tool', { name: 'job.progress', arguments: { gate: 'p' } });
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    gates.get('p').release();
    const done = await pollTask(client, created.taskId, hasStatus('completed'), 'completion');
    expect(done.result).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'done after half' }] });
  });

  it('a call that settles within its turn is answered at once, even from a client that declared tasks', async () => {
    const { client, gates } = await startApp();
    gates.get('open').release();
    const answer = await client.call('job.wait', { gate: 'open' });
    expect(answer.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'released open' }] });
    expect(answer.result).not.toHaveProperty('taskId');
  });

  it('a tool error completes the task with its isError result; a thrown ProtocolError fails it with the error', async () => {
    const { client, gates } = await startApp();
    const toolError = await startTask(client, 'job.tool_error', { gate: 'te' });
    const protocolError = await startTask(client, 'job.protocol_error', { gate: 'pe' });
    gates.get('te').release();
    gates.get('pe').release();

    const completed = await pollTask(client, toolError.taskId, hasStatus('completed'), 'the tool error');
    expect(completed.statusMessage).toBe('Completed with a tool error');
    expect(completed.result).toEqual({
      resultType: 'complete',
      isError: true,
      content: [{ type: 'text', text: 'The job failed: out of paper' }]
    });
    expect(completed).not.toHaveProperty('error');

    const failed = await pollTask(client, protocolError.taskId, hasStatus('failed'), 'the protocol error');
    expect(failed.error).toEqual({ code: -32603, message: 'Upstream protocol failure' });
    expect(failed.statusMessage).toBe('Upstream protocol failure');
    expect(failed).not.toHaveProperty('result');
  });

  it('an unexpected exception (not a tool error) fails the task with a JSON-RPC error; answered in the request it is an isError result', async () => {
    const { client, gates } = await startApp();
    const crash = await startTask(client, 'job.crash', { gate: 'x' });
    gates.get('x').release();
    const failed = await pollTask(client, crash.taskId, hasStatus('failed'), 'the crash');
    expect(failed.error).toEqual({ code: -32603, message: 'disk on fire' });
    expect(failed).not.toHaveProperty('result');
    // The same tool without the extension: the call's own answer, an isError result, as for any tool.
    gates.get('y').release();
    const plain = await client.call('job.crash', { gate: 'y' }, false);
    expect(plain.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'disk on fire' }] });
  });

  it('terminal states never change: cancel and update of a finished task are acked and it stays as it was', async () => {
    const { client, gates } = await startApp();
    const ok = await startTask(client, 'job.wait', { gate: 'a' });
    const bad = await startTask(client, 'job.protocol_error', { gate: 'b' });
    gates.get('a').release();
    gates.get('b').release();
    const completed = await pollTask(client, ok.taskId, hasStatus('completed'), 'completion');
    const failed = await pollTask(client, bad.taskId, hasStatus('failed'), 'failure');

    for (const finished of [completed, failed]) {
      expect((await client.cancel(finished.taskId)).result).toMatchObject({ resultType: 'complete' });
      expect((await client.update(finished.taskId, { 'input#1': accept(true) })).result).toMatchObject({ resultType: 'complete' });
      const after = await taskOf(client, finished.taskId);
      expect(after).toEqual({ ...finished, _meta: after._meta });
    }
  });

  it('an unknown task id is -32602; a tasks/get that does not declare the extension is -32021', async () => {
    const { client, gates } = await startApp();
    for (const answer of [await client.get('no-such-task'), await client.update('no-such-task', {}), await client.cancel('no-such-task')]) {
      expect(answer.error).toEqual({ code: -32602, message: NOT_FOUND });
    }
    const task = await startTask(client, 'job.wait', { gate: 'g' });
    const refused = await client.get(task.taskId, false);
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({ code: -32021, message: expect.stringContaining(TASKS) });
    gates.get('g').release();
    await pollTask(client, task.taskId, hasStatus('completed'), 'completion');
  });

  it('without the extension the same tool runs synchronously, waiting included; a task-required tool is refused -32021 and never entered', async () => {
    const { client, gates } = await startApp();
    const gate = gates.get('sync');
    const pending = client.call('job.wait', { gate: 'sync' }, false);
    await gate.entered;
    gate.release();
    const answer = await pending;
    expect(answer.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'released sync' }] });
    expect(answer.result).not.toHaveProperty('taskId');

    const required = await client.call('job.required', { gate: 'req' }, false);
    expect(required.status).toBe(400);
    // The tasks extension's check (its callLife.checkFor), before the call takes anything: the core's error, as it always was.
    expect(required.error).toEqual({
      code: -32021,
      message: `Tool job.required needs client capabilities the client did not declare: extensions.`,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } }
    });
    expect(gates.get('req').waits).toBe(0);
    // With the extension it is a task.
    const task = await startTask(client, 'job.required', { gate: 'req' });
    gates.get('req').release();
    const done = await pollTask(client, task.taskId, hasStatus('completed'), 'completion');
    expect(textOf(done.result)).toBe('required job done');
  });
});

describe('tasks: input through tasks/update', () => {
  /** A refund task waiting for its first confirmation (the handler waited on its gate first, so the call is a task). */
  async function refundWaitingForInput(started: Started, gate: string, amount: number): Promise<Task> {
    const task = await startTask(started.client, 'refund.task', { gate, amount });
    started.gates.get(gate).release();
    return pollTask(started.client, task.taskId, hasStatus('input_required'), 'the confirmation');
  }

  it('asks inside the task; a wrong-typed answer is asked again under a new key; the right one completes with exactly one refund', async () => {
    const started = await startApp();
    const { client, ledger } = started;
    const asking = await refundWaitingForInput(started, 'r', 7);
    expect(inputKeys(asking)).toEqual(['approval#1']);
    expect(asking.statusMessage).toBe('Waiting for input');
    expect((asking.inputRequests as Record<string, unknown>)['approval#1']).toEqual({
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: 'Refund $7?',
        requestedSchema: {
          type: 'object',
          properties: { confirm: { type: 'boolean', description: 'Approve the refund' } },
          required: ['confirm']
        }
      }
    });

    const ack = await client.update(asking.taskId, { 'approval#1': accept('yes') });
    expect(ack.result).toMatchObject({ resultType: 'complete' });
    const askedAgain = await pollTask(
      client,
      asking.taskId,
      (task) => task.status === 'input_required' && !inputKeys(task).includes('approval#1'),
      'the question asked again'
    );
    expect(inputKeys(askedAgain)).toEqual(['approval#2']);
    const again = (askedAgain.inputRequests as Record<string, { params: { message: string } }>)['approval#2'];
    expect(again.params.message).toContain('The previous answer was invalid');
    expect(ledger.refunds).toEqual([]);

    await client.update(asking.taskId, { 'approval#2': accept(true) });
    const done = await pollTask(client, asking.taskId, hasStatus('completed'), 'the refund');
    expect(done.result).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'Refunded $7' }] });
    expect(done).not.toHaveProperty('inputRequests');
    expect(ledger.refunds).toEqual([7]);
  });

  it('a declined confirmation completes the task with the decline text (an isError result, as any declined call), and nothing is refunded', async () => {
    const started = await startApp();
    const asking = await refundWaitingForInput(started, 'd', 12);
    await started.client.update(asking.taskId, { 'approval#1': { action: 'decline' } });
    const done = await pollTask(started.client, asking.taskId, hasStatus('completed'), 'the decline');
    expect(done.result).toEqual({ resultType: 'complete', isError: true, content: [{ type: 'text', text: 'Refund cancelled' }] });
    expect(done.statusMessage).toBe('Completed with a tool error');
    expect(started.ledger.refunds).toEqual([]);
  });

  it('answers to keys that are not outstanding are ignored: the task keeps waiting under its key, the handler is not entered', async () => {
    const started = await startApp();
    const { client, ledger } = started;
    const asking = await refundWaitingForInput(started, 'i', 3);
    const entered = ledger.entered;
    // The handler's own key, another round's key, an unknown key: none is outstanding.
    for (const answers of [{ approval: accept(true) }, { 'approval#2': accept(true) }, { 'other#1': accept(true) }]) {
      expect((await client.update(asking.taskId, answers)).result).toMatchObject({ resultType: 'complete' });
      // An update that applies moves the task to working before it is acked: still waiting means ignored.
      const after = await taskOf(client, asking.taskId);
      expect(after.status).toBe('input_required');
      expect(inputKeys(after)).toEqual(['approval#1']);
    }
    expect(ledger.entered).toBe(entered);
    expect(ledger.refunds).toEqual([]);
  });
});

describe('tasks: cancel', () => {
  it('cancelling a working mutation settles it cancelled at once, aborts its run and frees the mutation lock', async () => {
    const { client, gates, app } = await startApp();
    const task = await startTask(client, 'lock.hold', { gate: 'never' });
    expect((await taskOf(client, task.taskId)).status).toBe('working');

    const ack = await client.cancel(task.taskId);
    expect(ack.result).toMatchObject({ resultType: 'complete' });
    const cancelled = await taskOf(client, task.taskId);
    expect(cancelled).toMatchObject({ status: 'cancelled', statusMessage: 'Cancelled by the client' });
    expect(cancelled).not.toHaveProperty('result');
    expect(cancelled).not.toHaveProperty('error');
    await until(() => gates.get('never').aborted, 'the run to be aborted');

    // Another mutation of the same app, as a plain call: it gets the lock, so it answers.
    const quick = await client.call('lock.quick', {}, false);
    expect(quick.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'written' }] });
    await until(() => app.activeCalls === 0, 'no call in flight');
    // The aborted run's end does not move the cancelled task.
    expect(await taskOf(client, task.taskId)).toMatchObject({ status: 'cancelled' });
  });

  it('cancelling a task that waits for input settles it cancelled; a later tasks/update is acked and never runs the handler', async () => {
    const { client, gates, ledger } = await startApp();
    const task = await startTask(client, 'refund.task', { gate: 'c', amount: 5 });
    gates.get('c').release();
    await pollTask(client, task.taskId, hasStatus('input_required'), 'the confirmation');
    // No lock is held while a person answers: another mutation runs meanwhile.
    expect(textOf((await client.call('lock.quick', {}, false)).result)).toBe('written');
    const entered = ledger.entered;

    expect((await client.cancel(task.taskId)).result).toMatchObject({ resultType: 'complete' });
    const cancelled = await taskOf(client, task.taskId);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled).not.toHaveProperty('inputRequests');

    expect((await client.update(task.taskId, { 'approval#1': accept(true) })).result).toMatchObject({ resultType: 'complete' });
    expect((await taskOf(client, task.taskId)).status).toBe('cancelled');
    expect(ledger.entered).toBe(entered);
    expect(ledger.refunds).toEqual([]);
  });
});

describe('tasks: bound to their caller', () => {
  let key: SigningKey;
  beforeAll(async () => {
    key = await signingKey('tasks-key');
  });

  it("another caller's tasks/get, tasks/update and tasks/cancel are told the task does not exist; its owner's work", async () => {
    const { url, gates } = await startApp({
      auth: {
        verifier: jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: jwksOf(key) }),
        resource: AUDIENCE,
        authorizationServers: [ISSUER]
      }
    });
    const alice = clientOf(url, await mintToken(key, { sub: 'alice' }));
    const bob = clientOf(url, await mintToken(key, { sub: 'bob' }));
    const task = await startTask(alice, 'refund.task', { gate: 'a', amount: 9 });
    gates.get('a').release();
    await pollTask(alice, task.taskId, hasStatus('input_required'), 'the confirmation');

    for (const answer of [
      await bob.get(task.taskId),
      await bob.update(task.taskId, { 'approval#1': accept(true) }),
      await bob.cancel(task.taskId)
    ]) {
      expect(answer.error).toEqual({ code: -32602, message: NOT_FOUND });
    }
    // Nothing bob sent reached the task.
    const untouched = await taskOf(alice, task.taskId);
    expect(untouched.status).toBe('input_required');
    expect(inputKeys(untouched)).toEqual(['approval#1']);

    expect((await alice.update(task.taskId, { 'approval#1': accept(true) })).result).toMatchObject({ resultType: 'complete' });
    const done = await pollTask(alice, task.taskId, hasStatus('completed'), 'the refund');
    expect(textOf(done.result)).toBe('Refunded $9');
    expect((await bob.get(task.taskId)).error).toEqual({ code: -32602, message: NOT_FOUND });

    const other = await startTask(alice, 'job.wait', { gate: 'w' });
    expect((await bob.cancel(other.taskId)).error?.code).toBe(-32602);
    expect((await alice.cancel(other.taskId)).result).toMatchObject({ resultType: 'complete' });
    expect((await taskOf(alice, other.taskId)).status).toBe('cancelled');
  });
});

describe('tasks: expiry and limits', () => {
  it("a finished task is kept for its tool's ttlMs, then removed (-32602)", async () => {
    const { client, gates } = await startApp();
    const task = await startTask(client, 'job.short_ttl', { gate: 't' });
    expect(task).toMatchObject({ ttlMs: 1000, pollIntervalMs: 250 });
    gates.get('t').release();
    const done = await pollTask(client, task.taskId, hasStatus('completed'), 'completion');
    expect(textOf(done.result)).toBe('kept briefly');
    expect((await client.get(task.taskId)).result?.status).toBe('completed');

    const later = Date.now() + 1001;
    jest.spyOn(Date, 'now').mockReturnValue(later);
    expect((await client.get(task.taskId)).error).toEqual({ code: -32602, message: NOT_FOUND });
    jest.restoreAllMocks();
    // Removed, not hidden: back at the real time it is still gone.
    expect((await client.get(task.taskId)).error?.code).toBe(-32602);
  });

  it('with maxLiveTasks: 1 and one task live, a second task request gets an isError result saying the server is busy', async () => {
    const { client, gates } = await startApp({ tasks: { maxLiveTasks: 1 } });
    const live = await startTask(client, 'job.wait', { gate: 'first' });
    const busy = await client.call('job.wait', { gate: 'second' });
    expect(busy.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Server busy: 1 tasks are already running or waiting. Retry later.' }]
    });
    expect(busy.result).not.toHaveProperty('taskId');
    expect(gates.get('second').waits).toBe(0);

    gates.get('first').release();
    await pollTask(client, live.taskId, hasStatus('completed'), 'completion');
    // A finished task no longer counts.
    const next = await startTask(client, 'job.wait', { gate: 'third' });
    gates.get('third').release();
    await pollTask(client, next.taskId, hasStatus('completed'), 'completion');
  });

  it('maxLiveTasks holds under concurrent task requests (admitted requests are counted before they are stored)', async () => {
    const { client, gates } = await startApp({ tasks: { maxLiveTasks: 1 } });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => client.call('job.wait', { gate: `c${i}` })));
    const tasks = answers.filter((a) => (a.result as { resultType?: string } | undefined)?.resultType === 'task');
    const busy = answers.filter((a) => (a.result as { isError?: boolean } | undefined)?.isError === true);
    expect(tasks).toHaveLength(1);
    expect(busy).toHaveLength(7);
    for (let i = 0; i < 8; i++) gates.get(`c${i}`).release();
    await pollTask(client, (tasks[0].result as { taskId: string }).taskId, hasStatus('completed'), 'completion');
  });
});

describe('tasks: a SqliteTaskStore survives a restart', () => {
  const ROOT = join(__dirname, '..', '..');
  const SCRIPT = join(ROOT, 'build', 'test', 'fixtures', 'task-tools.js');

  /** The fixture server in a child process on `file`; resolves with it once it prints its URL. */
  function startChild(file: string, children: ChildProcess[]): Promise<{ child: ChildProcess; url: URL }> {
    if (!existsSync(SCRIPT)) throw new Error(`${SCRIPT} is missing: compile first (npx tsc -p tsconfig.json)`);
    const child = spawn(process.execPath, [SCRIPT, file], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    return new Promise((resolve, reject) => {
      let err = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        const match = /listening (\S+)/.exec(err);
        if (match) resolve({ child, url: new URL(match[1]) });
      });
      child.once('exit', (code, signal) => reject(new Error(`the fixture server exited (${code ?? signal}) before listening:\n${err}`)));
    });
  }

  function kill(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    return exited;
  }

  it('after a SIGKILL the completed task still answers with its result, the working one is failed, the waiting one can be answered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpfusion-tasks-'));
    const file = join(dir, 'tasks.db');
    const children: ChildProcess[] = [];
    try {
      const first = await startChild(file, children);
      const before = clientOf(first.url);
      const finished = await startTask(before, 'job.wait', { gate: 'done' });
      expect(textOf((await before.call('gate.release', { gate: 'done' }, false)).result)).toBe('opened done');
      await pollTask(before, finished.taskId, hasStatus('completed'), 'completion');
      const running = await startTask(before, 'job.wait', { gate: 'never' });
      const waiting = await startTask(before, 'refund.task', { gate: 'r', amount: 3 });
      await before.call('gate.release', { gate: 'r' }, false);
      await pollTask(before, waiting.taskId, hasStatus('input_required'), 'the confirmation');
      expect((await taskOf(before, running.taskId)).status).toBe('working');

      await kill(first.child);
      const second = await startChild(file, children);
      const after = clientOf(second.url);

      const kept = await taskOf(after, finished.taskId);
      expect(kept).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'released done' }] } });
      const orphan = await taskOf(after, running.taskId);
      expect(orphan.status).toBe('failed');
      expect(orphan.statusMessage).toMatch(/restarted/);
      expect(orphan.error).toEqual({ code: -32603, message: expect.stringMatching(/restarted/) });

      const stillWaiting = await taskOf(after, waiting.taskId);
      expect(stillWaiting.status).toBe('input_required');
      expect(inputKeys(stillWaiting)).toEqual(['approval#1']);
      // The new process re-enters the handler (it waits on its gate again: open it there).
      await after.call('gate.release', { gate: 'r' }, false);
      await after.update(waiting.taskId, { 'approval#1': accept(true) });
      const refunded = await pollTask(after, waiting.taskId, hasStatus('completed'), 'the refund after the restart');
      expect(textOf(refunded.result)).toBe('Refunded $3');
    } finally {
      await Promise.all(children.map(kill));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
