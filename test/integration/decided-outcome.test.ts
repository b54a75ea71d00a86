/**
 * A decided outcome is final (issue 32): once a mutation's handler has returned, no cancel that
 * arrives while its result is being presented changes what the call was. The presenter here
 * awaits (as one that reads a database would), and the test cancels while it waits, every way a
 * client can: a 2025-era `notifications/cancelled`, a 2026-07-28 stream closed (and the round
 * re-issued), `tasks/cancel`; in process, and on two instances sharing Redis (the cancel or the
 * re-issue sent to the other instance). Every time: the effect happened once, the outcome is the
 * presented result (a task reads `completed`, a re-issued exactly-once round gets the recorded
 * result without running again, the span is not cancelled), and the next mutation runs at once.
 * A presenter that never finishes is bounded by `presenterTimeoutMs`: an `isError` result saying
 * the work was done, never a cancellation.
 */
import { connect } from 'node:net';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { IsInt, Min } from 'class-validator';
import {
  Action,
  FusionApp,
  Input,
  Interactive,
  Mutation,
  ToolProvider,
  ask,
  readInput,
  requireInput,
  type FusionAppOptions,
  type PresentationContext,
  type Presenter
} from '../../src';
import { connectTestClient } from '../../src/testing';
import { connectRedis, RedisContinuationStore, RedisMutationLock, RedisTaskStore, type RedisConnection } from '../../src/redis';
import { registerContext, Recorder } from '../helpers/otel';
import { modernRequest, postRaw, rawRequestText, responseOf } from '../helpers/raw-http';
import { startRedis, describeWithRedis, type RedisServer } from '../helpers/redis-server';
import { until } from '../helpers/wire-log';
// White-box probe: the moment a cancel reaches a call is when its CallAbort is told (see nextCallAbort).
import { CallAbort } from '../../src/concurrency/call-abort';

class Amount {
  @IsInt()
  @Min(1)
  id!: number;
}

/** A promise the test settles. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** What the tools did, and the presenter's gate (shared by every app of a test: one process). */
const world = {
  ledger: [] as number[],
  runs: 0,
  presenting: deferred(),
  finishPresenting: deferred(),
  holdPresenter: true
};

/** A presenter that awaits I/O before it shapes the result (held by the test while it cancels). */
class SlowPresenter implements Presenter {
  async present(value: unknown, _ctx: PresentationContext): Promise<CallToolResult> {
    world.presenting.resolve();
    if (world.holdPresenter) await world.finishPresenting.promise;
    return { content: [{ type: 'text', text: `presented: ${String(value)}` }] };
  }
}

@ToolProvider()
class Vault {
  @Mutation('vault.deposit', { description: 'Deposits, then its result is presented slowly.', presenter: SlowPresenter })
  deposit(@Input() input: Amount) {
    world.runs++;
    world.ledger.push(input.id);
    return `deposited ${input.id}`;
  }

  @Interactive({ exactlyOnce: true })
  @Mutation('vault.withdraw', { description: 'Withdraws after a confirmation; presented slowly.', presenter: SlowPresenter })
  withdraw(@Input() input: Amount) {
    const confirm = readInput<boolean>('confirm');
    if (confirm === undefined) return requireInput.elicit(`Withdraw ${input.id}?`, { confirm: ask.boolean('Confirm') });
    world.runs++;
    world.ledger.push(input.id);
    return `withdrew ${input.id}`;
  }

  @Mutation('vault.archive', {
    description: 'Archives as a task, at once; presented slowly.',
    presenter: SlowPresenter,
    task: { support: 'optional', create: 'at-once' }
  })
  archive(@Input() input: Amount) {
    world.runs++;
    world.ledger.push(input.id);
    return `archived ${input.id}`;
  }

  @Mutation('vault.touch', { description: 'A quick mutation: runs only when the lock is free.' })
  touch() {
    return 'touched';
  }

  @Action('vault.count', { description: 'How many effects the ledger holds.' })
  count() {
    return String(world.ledger.length);
  }
}

beforeEach(() => {
  world.ledger.length = 0;
  world.runs = 0;
  world.presenting = deferred();
  world.finishPresenting = deferred();
  world.holdPresenter = true;
});

/**
 * Resolves once the next call is told to abort by a task's cancel (the abort applied first). The
 * test releases the presenter then: the cancel lands while it presents.
 */
function nextCallAbort(): Promise<void> {
  const original = CallAbort.prototype.abort;
  return new Promise((resolve) => {
    const spy = jest.spyOn(CallAbort.prototype, 'abort').mockImplementation(function (this: CallAbort, reason: unknown) {
      spy.mockRestore();
      original.call(this, reason);
      resolve();
    });
  });
}

/**
 * Resolves once the SDK aborts a request's signal (a `notifications/cancelled` read, a response
 * stream closed), and what follows from it in the same turn has run. The test releases the
 * presenter then: the cancel lands while it presents.
 */
function nextRequestAbort(): Promise<void> {
  const original = AbortController.prototype.abort;
  return new Promise((resolve) => {
    const spy = jest.spyOn(AbortController.prototype, 'abort').mockImplementation(function (this: AbortController, reason?: unknown) {
      spy.mockRestore();
      original.call(this, reason);
      setImmediate(resolve);
    });
  });
}

const TASKS = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = { elicitation: { form: {} }, extensions: { [TASKS]: {} } };

async function rpc(url: URL, method: string, params: Record<string, unknown>) {
  const { body, headers } = modernRequest(method, params, { capabilities: WITH_TASKS });
  return responseOf(await postRaw(url, body, { ...headers, ...(typeof params.taskId === 'string' ? { 'mcp-name': params.taskId } : {}) }));
}

/** Sends a 2026-07-28 request on a socket of its own; resolves with a function that closes it (the broken stream). */
function openStream(url: URL, params: Record<string, unknown>): Promise<() => void> {
  const { body, headers } = modernRequest('tools/call', params);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), '127.0.0.1', () =>
      socket.write(rawRequestText({ target: '/mcp', hostLines: [url.host], headers, body }), () => resolve(() => socket.destroy()))
    );
    socket.on('error', () => undefined);
  });
}

/** Round one of a withdrawal: the question and the confirming round's params. */
async function confirmingRound(url: URL, id: number): Promise<Record<string, unknown>> {
  const asked = (await rpc(url, 'tools/call', { name: 'vault.withdraw', arguments: { id } })).result as {
    requestState: string;
    inputRequests: Record<string, unknown>;
  };
  const key = Object.keys(asked.inputRequests)[0];
  return {
    name: 'vault.withdraw',
    arguments: { id },
    requestState: asked.requestState,
    inputResponses: { [key]: { action: 'accept', content: { confirm: true } } }
  };
}

/** The shared scenarios, run against `first` (where the call starts) and `second` (where the client comes back). */
function scenarios(endpoints: () => { first: URL; second: URL; apps: FusionApp[] }) {
  it('2026-07-28: the stream of a confirmed round closed while its result is presented; the re-issue gets the recorded result, nothing runs again', async () => {
    const { first, second } = endpoints();
    const round = await confirmingRound(first, 11);
    const close = await openStream(first, round);
    await world.presenting.promise;
    close(); // the client's cancel, in this era
    const again = rpc(second, 'tools/call', round);
    world.finishPresenting.resolve();
    expect((await again).result).toMatchObject({ content: [{ type: 'text', text: 'presented: withdrew 11' }] });
    expect(world.ledger).toEqual([11]);
    expect(world.runs).toBe(1);
    // The lock is free: the next mutation runs at once.
    expect((await rpc(second, 'tools/call', { name: 'vault.touch', arguments: {} })).result).toMatchObject({
      content: [{ text: 'touched' }]
    });
  });

  it('tasks/cancel while the task’s result is presented: the task reads completed, with the presented result', async () => {
    const { first, second } = endpoints();
    const created = (await rpc(first, 'tools/call', { name: 'vault.archive', arguments: { id: 12 } })).result as {
      taskId: string;
      resultType: string;
    };
    expect(created.resultType).toBe('task');
    await world.presenting.promise;
    const reached = nextCallAbort();
    const cancelled = rpc(second, 'tasks/cancel', { taskId: created.taskId });
    await reached;
    world.finishPresenting.resolve();
    expect((await cancelled).error).toBeUndefined();
    let task: Record<string, unknown> | undefined;
    for (let i = 0; i < 2000; i++) {
      task = (await rpc(second, 'tasks/get', { taskId: created.taskId })).result;
      if (task?.status !== 'working') break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(task).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'presented: archived 12' }] } });
    expect(world.ledger).toEqual([12]);
    expect((await rpc(second, 'tools/call', { name: 'vault.touch', arguments: {} })).result).toMatchObject({
      content: [{ text: 'touched' }]
    });
  });
}

function appOptions(extra: Partial<FusionAppOptions<object>> = {}): FusionAppOptions<object> {
  return { tools: [Vault], stateKey: 'd'.repeat(32), logger: () => undefined, ...extra };
}

describe('in process', () => {
  let app: FusionApp;
  let url: URL;
  let recorder: Recorder;
  let unregister: () => void;
  beforeAll(async () => {
    unregister = registerContext();
    recorder = new Recorder();
    app = FusionApp.create(appOptions({ telemetry: { tracerProvider: recorder.tracerProvider, meterProvider: recorder.meterProvider } }));
    ({ url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL });
  });
  afterAll(async () => {
    await app.close();
    await recorder.close();
    unregister();
  });

  scenarios(() => ({ first: url, second: url, apps: [app] }));

  it('2025-era: notifications/cancelled while the result is presented: the call ends as it was decided, not cancelled', async () => {
    const client = await connectTestClient(app, { era: 'legacy-memory' });
    try {
      const controller = new AbortController();
      const call = client.client.callTool({ name: 'vault.deposit', arguments: { id: 13 } }, { signal: controller.signal });
      await world.presenting.promise;
      const reached = nextRequestAbort();
      controller.abort('changed my mind'); // the SDK client sends notifications/cancelled
      await expect(call).rejects.toThrow();
      await reached;
      world.finishPresenting.resolve();
      const span = await recorder.ended((s) => s.name === 'tools/call vault.deposit', 'the deposit span');
      expect(span.attributes['error.type']).toBeUndefined();
      await until(() => app.activeCalls === 0, 'the call to end');
      expect(world.ledger).toEqual([13]);
      expect((await app.callTool('vault.touch')).content).toEqual([{ type: 'text', text: 'touched' }]);
    } finally {
      await client.close();
    }
  });

  it('2026-07-28: the stream of a mutation closed while its result is presented: the call ends as it was decided, not cancelled', async () => {
    const close = await openStream(url, { name: 'vault.deposit', arguments: { id: 16 } });
    await world.presenting.promise;
    const reached = nextRequestAbort();
    close(); // the client's cancel, in this era
    await reached;
    world.finishPresenting.resolve();
    const span = await recorder.ended(
      (s) => s.name === 'tools/call vault.deposit' && s.attributes['mcp.protocol.version'] === '2026-07-28',
      'the 2026 deposit span'
    );
    expect(span.attributes['error.type']).toBeUndefined();
    await until(() => app.activeCalls === 0, 'the call to end');
    expect(world.ledger).toEqual([16]);
    expect((await app.callTool('vault.touch')).content).toEqual([{ type: 'text', text: 'touched' }]);
  });

  it('a presenter that never finishes is bounded by presenterTimeoutMs: an isError result saying the work was done', async () => {
    const bounded = FusionApp.create(appOptions({ presenterTimeoutMs: 20 }));
    try {
      const result = await bounded.callTool('vault.deposit', { id: 14 });
      expect(result).toMatchObject({ isError: true });
      expect((result.content[0] as { text: string }).text).toBe(
        'Tool vault.deposit ran, but its presenter did not finish within 20 ms; its work was done and is not undone. Make the presenter faster, or raise presenterTimeoutMs.'
      );
      expect(world.ledger).toEqual([14]);
      expect((await bounded.callTool('vault.touch')).content).toEqual([{ type: 'text', text: 'touched' }]);
    } finally {
      world.finishPresenting.resolve();
      await bounded.close();
    }
  });

  it('an abort before the handler decided still cancels: the handler never runs', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await app.callTool('vault.deposit', { id: 15 }, { signal: controller.signal });
    expect(result.isError).toBe(true);
    expect(world.ledger).toEqual([]);
  });
});

describeWithRedis('two instances on Redis (the cancel or the re-issue sent to the other)', () => {
  let redis: RedisServer;
  let connection: RedisConnection;
  const apps: FusionApp[] = [];
  const urls: URL[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    connection = await connectRedis(redis.url);
    for (let i = 0; i < 2; i++) {
      const app = FusionApp.create(
        appOptions({
          continuationStore: new RedisContinuationStore(connection, { key: 'd'.repeat(32) }),
          mutationLock: new RedisMutationLock(connection),
          tasks: { store: new RedisTaskStore(connection) }
        })
      );
      apps.push(app);
      urls.push(((await app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL }).url);
    }
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await connection.close();
    await redis.stop();
  });

  scenarios(() => ({ first: urls[0], second: urls[1], apps }));
});
