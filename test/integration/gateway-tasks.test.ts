import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  Client,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  StreamableHTTPClientTransport,
  type JSONRPCMessage
} from '@modelcontextprotocol/client';
import { Action, Ctx, FusionApp, Input, Interactive, ToolProvider, ask, proxy, readInput, requireInput, type CallContext } from '../../src';
import type { Gateway } from '../../src/advanced';
import { RawExchange, UpstreamRpcError } from '../../src/wire/raw-exchange';
import { IsOptional, IsString } from 'class-validator';
import { join } from 'node:path';

/**
 * Tasks through the gateway (SEP-2663, 2026-07-28): a real framework app upstream over HTTP on
 * 127.0.0.1 whose tools run as tasks, a gateway app in front of it (`proxy`, the upstream spoken
 * to in 2026-07-28), and real SDK clients of the front over HTTP, each its own caller (the front's
 * `principalOf` reads an `x-user` header). The SDK client refuses a `resultType: "task"` answer, so
 * the task requests go raw over each client's own SDK transport (as `mcpfusion call --task` does).
 */

const TASKS = 'io.modelcontextprotocol/tasks';

class Deferred<T = void> {
  resolve!: (value: T) => void;
  readonly promise = new Promise<T>((resolve) => (this.resolve = resolve));
}

/** What the tests release and observe inside the upstream's tools. */
const upstreamSide = {
  reportGate: new Deferred(),
  longJobStarted: new Deferred(),
  longJobAborted: new Deferred<string>()
};

class ReportInput {
  @IsOptional()
  @IsString()
  title?: string;
}

@ToolProvider()
class UpstreamTaskTools {
  @Action('report', { description: 'Builds a report once the test lets it (task-supporting)', task: 'optional' })
  async report(@Input() input: ReportInput) {
    await upstreamSide.reportGate.promise;
    return `Report ${input.title ?? 'untitled'} ready`;
  }

  @Action('long_job', { description: 'Runs until cancelled (task required)', task: 'required' })
  async longJob(@Ctx() ctx: CallContext) {
    upstreamSide.longJobStarted.resolve();
    await new Promise<void>((resolve) => {
      const onAbort = () => {
        upstreamSide.longJobAborted.resolve(String(ctx.signal.reason));
        resolve();
      };
      if (ctx.signal.aborted) onAbort();
      else ctx.signal.addEventListener('abort', onAbort, { once: true });
    });
    return 'stopped';
  }

  @Interactive()
  @Action('confirm_delete', { description: 'Asks to confirm, inside the task', task: { support: 'optional', create: 'at-once' } })
  confirmDelete() {
    // A task before it runs: the question goes through tasks/update.
    const confirm = readInput<boolean>('confirm');
    if (confirm === undefined) return requireInput.elicit('Delete it?', { confirm: ask.boolean('Confirm the deletion') });
    return confirm ? 'Deleted' : 'Kept';
  }
}

type Json = Record<string, unknown>;

interface Front {
  readonly client: Client;
  /** A raw request over the client's own transport, the tasks extension declared (or not: `declare: false`). */
  request(method: string, params: Json, declare?: boolean): Promise<Json>;
  /** A task status listen naming `taskIds`: every notification until the stream's result. */
  listen(taskIds: readonly string[], onNotification: (notification: Json) => void): Promise<Json>;
  close(): Promise<void>;
}

async function connectFront(url: URL, user: string): Promise<Front> {
  const client = new Client({ name: `front-${user}`, version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: { 'x-user': user } } });
  await client.connect(transport);
  const raw = new RawExchange(transport, false);
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if (!raw.takes(message)) receive?.(message);
  };
  const envelope = (declare: boolean) => ({
    [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
    [CLIENT_CAPABILITIES_META_KEY]: { elicitation: { form: {} }, ...(declare ? { extensions: { [TASKS]: {} } } : {}) },
    [CLIENT_INFO_META_KEY]: { name: `front-${user}`, version: '1.0.0' }
  });
  return {
    client,
    request: (method, params, declare = true) => raw.request(method, { ...params, _meta: envelope(declare) }),
    listen: (taskIds, onNotification) =>
      raw.listen({ notifications: { taskIds }, _meta: envelope(true) }, new AbortController().signal, onNotification),
    close: () => client.close()
  };
}

/** The JSON-RPC error code a request was refused with. */
async function codeOf(request: Promise<unknown>): Promise<number | string> {
  try {
    await request;
    return 'answered';
  } catch (error) {
    return error instanceof UpstreamRpcError ? error.code : String(error);
  }
}

/** `tasks/get` until the task's status is one of `statuses` (each poll a real request; bounded). */
async function until(front: Front, taskId: string, statuses: readonly string[]): Promise<Json> {
  for (let attempt = 0; attempt < 2000; attempt++) {
    const task = await front.request('tasks/get', { taskId });
    if (statuses.includes(String(task.status))) return task;
  }
  throw new Error(`task ${taskId} never reached ${statuses.join(' or ')}`);
}

describe('tasks through the gateway (2026-07-28, upstream over HTTP)', () => {
  let upstream: FusionApp;
  let front: FusionApp;
  let gateway: Gateway;
  let alice: Front;
  let bob: Front;
  let upstreamUrl: URL;

  beforeAll(async () => {
    upstream = FusionApp.create({ name: 'upstream', tools: [UpstreamTaskTools], logger: () => undefined });
    upstreamUrl = ((await upstream.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL }).url;
    gateway = await proxy({ url: upstreamUrl.href }, { era: '2026', logger: () => undefined });
    front = FusionApp.create({
      name: 'front',
      tools: [],
      gateways: [gateway],
      principalOf: (extra) => extra.httpRequest?.headers.get('x-user') ?? undefined,
      logger: () => undefined
    });
    const served = (await front.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL };
    alice = await connectFront(served.url, 'alice');
    bob = await connectFront(served.url, 'bob');
  });

  afterAll(async () => {
    upstreamSide.reportGate.resolve();
    await alice?.close();
    await bob?.close();
    await front?.close();
    await upstream?.close();
  });

  it('advertises the extension at the front', () => {
    expect(alice.client.getServerCapabilities()?.extensions?.[TASKS]).toEqual({});
  });

  it('keeps each tool’s execution.taskSupport in a 2025-era listing (2026-07-28 lists none: the field is gone there)', async () => {
    const legacyGateway = await proxy({ url: upstreamUrl.href }, { era: '2025', logger: () => undefined });
    const legacyFront = FusionApp.create({ name: 'legacy-front', tools: [], gateways: [legacyGateway], logger: () => undefined });
    const handler = legacyFront.createHttpHandler();
    const client = new Client({ name: 'legacy', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) })
      );
      const { tools } = await client.listTools();
      const support = Object.fromEntries(tools.map((tool) => [tool.name, tool.execution?.taskSupport]));
      expect(support).toEqual({ report: 'optional', long_job: 'required', confirm_delete: 'optional' });
    } finally {
      await client.close();
      await handler.close();
      await legacyFront.close();
    }
  });

  it('creates a task, follows it with tasks/get while it works, and reads its result once it completed', async () => {
    const created = await alice.request('tools/call', { name: 'report', arguments: { title: 'Q3' } });
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: expect.any(Number) });
    expect(created.taskId).toMatch(/^[0-9a-f-]{36}$/);
    // Strongly consistent: the front knows the task as soon as it answered with it.
    const working = await alice.request('tasks/get', { taskId: created.taskId });
    expect(working).toMatchObject({ resultType: 'complete', taskId: created.taskId, status: 'working' });
    upstreamSide.reportGate.resolve();
    const done = await until(alice, String(created.taskId), ['completed', 'failed', 'cancelled']);
    expect(done).toMatchObject({
      taskId: created.taskId,
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Report Q3 ready' }] }
    });
  });

  it('lets the task outlive the request that created it, until tasks/cancel stops it upstream', async () => {
    const created = await alice.request('tools/call', { name: 'long_job', arguments: {} });
    expect(created.resultType).toBe('task');
    // The front request is over; the job runs on upstream.
    await upstreamSide.longJobStarted.promise;
    const ack = await alice.request('tasks/cancel', { taskId: created.taskId });
    // An empty ack, named by the front (the upstream's own serverInfo stays upstream).
    expect(ack).toEqual({ resultType: 'complete', _meta: { [SERVER_INFO_META_KEY]: { name: 'front', version: '0.0.0' } } });
    await expect(upstreamSide.longJobAborted.promise).resolves.toContain('tasks/cancel');
    const cancelled = await until(alice, String(created.taskId), ['cancelled', 'completed', 'failed']);
    expect(cancelled.status).toBe('cancelled');
    // Idempotent on a finished task.
    await expect(alice.request('tasks/cancel', { taskId: created.taskId })).resolves.toMatchObject({ resultType: 'complete' });
  });

  it('asks through the task: input_required on tasks/get, answered with tasks/update, then completed', async () => {
    const created = await alice.request('tools/call', { name: 'confirm_delete', arguments: {} });
    expect(created.resultType).toBe('task');
    const waiting = await until(alice, String(created.taskId), ['input_required', 'completed', 'failed', 'cancelled']);
    expect(waiting.status).toBe('input_required');
    const keys = Object.keys(waiting.inputRequests as Json);
    expect(keys).toHaveLength(1);
    expect((waiting.inputRequests as Record<string, { method: string }>)[keys[0]!]!.method).toBe('elicitation/create');
    const ack = await alice.request('tasks/update', {
      taskId: created.taskId,
      inputResponses: { [keys[0]!]: { action: 'accept', content: { confirm: true } } }
    });
    expect(ack).toMatchObject({ resultType: 'complete' });
    expect(Object.keys(ack).sort()).toEqual(['_meta', 'resultType']);
    const done = await until(alice, String(created.taskId), ['completed', 'failed', 'cancelled']);
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'Deleted' }] } });
  });

  it('keeps one caller’s task out of another’s reach: the same -32602 as an unknown id', async () => {
    const created = await alice.request('tools/call', { name: 'long_job', arguments: {} });
    const taskId = String(created.taskId);
    expect(await codeOf(bob.request('tasks/get', { taskId }))).toBe(-32602);
    expect(await codeOf(bob.request('tasks/cancel', { taskId }))).toBe(-32602);
    expect(await codeOf(bob.request('tasks/update', { taskId, inputResponses: {} }))).toBe(-32602);
    expect(await codeOf(bob.request('tasks/get', { taskId: 'not-a-task' }))).toBe(-32602);
    // Without the extension declared, the task methods are refused before anything is looked up.
    expect(await codeOf(alice.request('tasks/get', { taskId }, false))).toBe(-32021);
    // Bob's cancel did nothing: Alice's task still works, and is hers to cancel.
    await expect(alice.request('tasks/get', { taskId })).resolves.toMatchObject({ taskId, status: 'working' });
    await alice.request('tasks/cancel', { taskId });
    await expect(until(alice, taskId, ['cancelled', 'completed', 'failed'])).resolves.toMatchObject({ status: 'cancelled' });
  });

  it('forwards task status listens: the caller’s own tasks followed under their front ids until they finish, no one else’s', async () => {
    const created = await alice.request('tools/call', { name: 'long_job', arguments: {} });
    const taskId = String(created.taskId);
    const heard: Json[] = [];
    const working = new Deferred();
    const listened = alice.listen([taskId, 'not-a-task'], (notification) => {
      heard.push(notification);
      if (notification.method === 'notifications/tasks') working.resolve();
    });
    await working.promise;
    await alice.request('tasks/cancel', { taskId });
    await expect(listened).resolves.toMatchObject({ resultType: 'complete' });
    expect(heard[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [taskId] } }
    });
    const statuses = heard.filter((n) => n.method === 'notifications/tasks').map((n) => n.params as Json);
    expect(statuses.every((task) => task.taskId === taskId)).toBe(true);
    expect(statuses.at(-1)).toMatchObject({ taskId, status: 'cancelled' });
    // Bob follows nothing of Alice's: an empty acknowledgement, and the stream ends.
    const bobHeard: Json[] = [];
    await expect(bob.listen([taskId], (notification) => bobHeard.push(notification))).resolves.toMatchObject({ resultType: 'complete' });
    expect(bobHeard).toEqual([expect.objectContaining({ params: expect.objectContaining({ notifications: { taskIds: [] } }) })]);
  });

  it('refuses a task to a 2025-era client that declared the extension (it has no methods to follow one)', async () => {
    const handler = front.createHttpHandler();
    const client = new Client(
      { name: 'legacy', version: '1.0.0' },
      { capabilities: { extensions: { [TASKS]: {} } }, versionNegotiation: { mode: 'legacy' } }
    );
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) })
      );
      const result = await client.callTool({ name: 'long_job', arguments: {} });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain('cannot follow');
    } finally {
      await client.close();
      await handler.close();
    }
  });

  it('answers a client that did not declare the extension synchronously, and refuses it a task-required tool (-32021)', async () => {
    const plain = await alice.client.callTool({ name: 'report', arguments: { title: 'sync' } });
    expect(plain.content).toEqual([{ type: 'text', text: 'Report sync ready' }]);
    expect(await codeOf(alice.request('tools/call', { name: 'long_job', arguments: {} }, false))).toBe(-32021);
  });
});

describe('tasks through the gateway (2026-07-28, upstream over stdio)', () => {
  let front: FusionApp;
  let alice: Front;

  beforeAll(async () => {
    const gateway = await proxy(
      { command: process.execPath, args: [join(__dirname, '..', '..', 'build', 'test', 'fixtures', 'gateway-task-upstream.js')] },
      { era: '2026', logger: () => undefined }
    );
    front = FusionApp.create({ name: 'front', tools: [], gateways: [gateway], logger: () => undefined });
    const served = (await front.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL };
    alice = await connectFront(served.url, 'alice');
  });

  afterAll(async () => {
    await alice?.close();
    await front?.close();
  });

  it('creates a task over stdio and follows it to its result', async () => {
    const created = await alice.request('tools/call', { name: 'slow_compute', arguments: { seconds: 1, label: 'stdio' } });
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const done = await until(alice, String(created.taskId), ['completed', 'failed', 'cancelled']);
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'Computed stdio after 1s' }] } });
  });

  it('cancels a task over stdio', async () => {
    const created = await alice.request('tools/call', { name: 'slow_compute', arguments: { seconds: 60, label: 'stopped' } });
    await expect(alice.request('tasks/cancel', { taskId: created.taskId })).resolves.toMatchObject({ resultType: 'complete' });
    await expect(until(alice, String(created.taskId), ['completed', 'failed', 'cancelled'])).resolves.toMatchObject({
      status: 'cancelled'
    });
  });
});
