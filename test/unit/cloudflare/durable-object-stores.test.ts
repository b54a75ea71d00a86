import {
  DurableObjectContinuationStore,
  DurableObjectTaskStore,
  FusionStateObject,
  StateObjectError,
  type DurableObjectNamespaceLike,
  type DurableObjectStorageLike
} from '../../../src/cloudflare';
import { StateOperations } from '../../../src/cloudflare/state-operations';
import type { TaskRecord } from '../../../src/tasks/task-record';
import { ConfigurationError, ErrorCode } from '../../../src/errors';

/**
 * The Durable Object backing without workerd: `FusionStateObject` over an in-memory storage with
 * the runtime's key-value API (get, put, delete, list, alarms), reached through a namespace whose
 * stubs hand each request to the one object, as the runtime does. What workerd adds (the binding,
 * the object's isolation, its SQLite storage) is exercised under `wrangler dev` by
 * test/integration/targets/workers-state.test.ts.
 */
class MemoryStorage implements DurableObjectStorageLike {
  readonly entries = new Map<string, unknown>();
  alarm: number | null = null;

  get<T>(key: string): Promise<T | undefined>;
  get<T>(keys: string[]): Promise<Map<string, T>>;
  async get<T>(key: string | string[]): Promise<T | undefined | Map<string, T>> {
    if (Array.isArray(key)) return new Map(key.filter((each) => this.entries.has(each)).map((each) => [each, this.copy(each) as T]));
    return this.copy(key) as T | undefined;
  }
  async put(key: string, value: unknown): Promise<void> {
    this.entries.set(key, structuredClone(value));
  }
  delete(key: string): Promise<boolean>;
  delete(keys: string[]): Promise<number>;
  async delete(key: string | string[]): Promise<boolean | number> {
    if (Array.isArray(key)) return key.filter((each) => this.entries.delete(each)).length;
    return this.entries.delete(key);
  }
  async list<T>(options: { prefix?: string; limit?: number; start?: string } = {}): Promise<Map<string, T>> {
    const keys = [...this.entries.keys()]
      .filter((key) => key.startsWith(options.prefix ?? '') && (options.start === undefined || key >= options.start))
      .sort()
      .slice(0, options.limit ?? Infinity);
    return new Map(keys.map((key) => [key, this.copy(key) as T]));
  }
  async getAlarm(): Promise<number | null> {
    return this.alarm;
  }
  async setAlarm(time: number | Date): Promise<void> {
    this.alarm = Number(time);
  }
  private copy(key: string): unknown {
    return this.entries.has(key) ? structuredClone(this.entries.get(key)) : undefined;
  }
}

/** A namespace of one object per name, each over its own storage, reached with web requests. */
function namespaceOf(): {
  namespace: DurableObjectNamespaceLike;
  objects: Map<string, { object: FusionStateObject; storage: MemoryStorage }>;
} {
  const objects = new Map<string, { object: FusionStateObject; storage: MemoryStorage }>();
  const namespace: DurableObjectNamespaceLike = {
    idFromName: (name) => ({ name }),
    get: (id) => ({
      fetch: (input, init) => {
        const { name } = id as { name: string };
        if (!objects.has(name)) {
          const storage = new MemoryStorage();
          objects.set(name, { object: new FusionStateObject({ storage }), storage });
        }
        return objects.get(name)!.object.fetch(new Request(input, init));
      }
    })
  };
  return { namespace, objects };
}

const KEY = 'k'.repeat(32);

describe('DurableObjectContinuationStore over FusionStateObject', () => {
  test('a single-use state is consumed once, whichever store instance (isolate) asks', async () => {
    const { namespace } = namespaceOf();
    const a = new DurableObjectContinuationStore(namespace, { key: KEY });
    const b = new DurableObjectContinuationStore(namespace, { key: KEY });
    expect(await a.consume('state-1')).toBe(true);
    expect(await b.consume('state-1')).toBe(false);
    expect(await a.consume('state-1')).toBe(false);
    expect(await b.consume('state-2')).toBe(true);
  });

  test('concurrent claims of one round: exactly one runs; the others get its outcome once it is recorded', async () => {
    const { namespace } = namespaceOf();
    const isolates = [0, 1, 2, 3].map(() => new DurableObjectContinuationStore(namespace, { key: KEY }));
    const first = await isolates[0].claim('round', 'fp');
    expect(first).toEqual({ kind: 'run' });
    const waiting = isolates.slice(1).map((store) => store.claim('round', 'fp'));
    await isolates[0].recordOutcome('round', { content: [{ type: 'text', text: 'Refunded' }] });
    for (const outcome of await Promise.all(waiting))
      expect(outcome).toEqual({ kind: 'done', outcome: { content: [{ type: 'text', text: 'Refunded' }] } });
  });

  test('many claims at once: one run, the rest wait (the object runs one operation at a time)', async () => {
    const { namespace } = namespaceOf();
    const stores = Array.from({ length: 12 }, () => new DurableObjectContinuationStore(namespace, { key: KEY }));
    const controller = new AbortController();
    const claims = stores.map((store) => store.claim('r', 'fp', controller.signal).catch(() => ({ kind: 'aborted' as const })));
    const winner = await Promise.race(claims.map((claim, index) => claim.then((outcome) => ({ outcome, index }))));
    expect(winner.outcome).toEqual({ kind: 'run' });
    controller.abort(new Error('enough'));
    const outcomes = await Promise.all(claims);
    expect(outcomes.filter((outcome) => outcome.kind === 'run')).toHaveLength(1);
  });

  test('another fingerprint is refused; a round given back runs again with the same answers only', async () => {
    const { namespace } = namespaceOf();
    const store = new DurableObjectContinuationStore(namespace, { key: KEY });
    expect(await store.claim('round', 'yes')).toEqual({ kind: 'run' });
    expect(await store.claim('round', 'no')).toEqual({ kind: 'refused' });
    await store.releaseClaim('round');
    expect(await store.claim('round', 'no')).toEqual({ kind: 'refused' });
    expect(await store.claim('round', 'yes')).toEqual({ kind: 'run' });
  });

  test('a waiting claim ends when its signal aborts', async () => {
    const { namespace } = namespaceOf();
    const a = new DurableObjectContinuationStore(namespace, { key: KEY });
    const b = new DurableObjectContinuationStore(namespace, { key: KEY });
    await a.claim('round', 'fp');
    const controller = new AbortController();
    const waiting = b.claim('round', 'fp', controller.signal);
    controller.abort(new Error('client went away'));
    await expect(waiting).rejects.toThrow('client went away');
  });

  test('states are sealed and opened as the signed store does (a tampered one is refused)', async () => {
    const { namespace } = namespaceOf();
    const store = new DurableObjectContinuationStore(namespace, { key: KEY });
    const token = await store.seal({ round: 1 });
    expect(await new DurableObjectContinuationStore(namespace, { key: KEY }).open(token)).toEqual({ round: 1 });
    await expect(store.open(`${token}x`)).rejects.toThrow();
    expect(await store.bindingTag('alice')).toBe(await new DurableObjectContinuationStore(namespace, { key: KEY }).bindingTag('alice'));
  });

  test('without a binding, the store says which binding it needs', () => {
    expect(() => new DurableObjectContinuationStore(undefined as unknown as DurableObjectNamespaceLike, { key: KEY })).toThrow(
      /durable_objects.*FusionStateObject/
    );
    expect(() => new DurableObjectTaskStore(undefined as unknown as DurableObjectNamespaceLike)).toThrow(ConfigurationError);
  });
});

describe('StateOperations leases (the object clock)', () => {
  test('a running claim whose lease lapsed is taken over; the old owner can no longer record', async () => {
    let now = 1_000;
    const storage = new MemoryStorage();
    const ops = new StateOperations(storage, () => now);
    const claim = (owner: string) => ops.apply({ op: 'claim', id: 'r', fingerprint: 'fp', owner, ttlMs: 600_000, leaseMs: 100 });
    expect(await claim('a')).toEqual({ kind: 'run' });
    expect(await claim('b')).toEqual({ kind: 'running' });
    now += 50;
    expect(await ops.apply({ op: 'renew', id: 'r', owner: 'a', leaseMs: 100 })).toBe(true);
    now += 99;
    expect(await claim('b')).toEqual({ kind: 'running' });
    now += 2;
    expect(await claim('b')).toEqual({ kind: 'run' });
    expect(await ops.apply({ op: 'record', id: 'r', owner: 'a', outcome: '"late"' })).toBe(false);
    expect(await ops.apply({ op: 'record', id: 'r', owner: 'b', outcome: '"ok"' })).toBe(true);
    expect(await claim('c')).toEqual({ kind: 'done', outcome: '"ok"' });
  });

  test('expired entries read as absent, and the alarm deletes them', async () => {
    let now = 0;
    const storage = new MemoryStorage();
    const ops = new StateOperations(storage, () => now);
    expect(await ops.apply({ op: 'consume', id: 's', ttlMs: 1_000 })).toBe(true);
    expect(storage.alarm).not.toBeNull();
    now = 1_000;
    expect(await ops.apply({ op: 'consume', id: 's', ttlMs: 1_000 })).toBe(true);
    now = 5_000;
    await ops.prune();
    expect([...storage.entries.keys()]).toEqual([]);
  });
});

function task(overrides: Partial<TaskRecord> = {}): TaskRecord {
  return {
    taskId: 't1',
    principal: null,
    toolName: 'report.build',
    arguments: {},
    clientCapabilities: {},
    status: 'working',
    createdAt: Date.now(),
    lastUpdatedAt: Date.now(),
    ttlMs: 60_000,
    pollIntervalMs: 1_000,
    rounds: 0,
    ...overrides
  };
}

describe('DurableObjectTaskStore over FusionStateObject', () => {
  test('a record created on one isolate is read, moved and counted on another; terminal statuses are never left', async () => {
    const { namespace } = namespaceOf();
    const a = new DurableObjectTaskStore(namespace);
    const b = new DurableObjectTaskStore(namespace);
    await a.create(task());
    expect((await b.get('t1'))?.status).toBe('working');
    expect(await b.countLive()).toBe(1);
    const done = await b.transition('t1', ['working'], { status: 'completed', result: { content: [] } });
    expect(done?.status).toBe('completed');
    expect(await a.countLive()).toBe(0);
    expect(await a.listLive()).toEqual([]);
    expect(await a.transition('t1', ['working', 'completed'], { status: 'failed' })).toBeUndefined();
    expect((await a.get('t1'))?.status).toBe('completed');
  });

  test('concurrent transitions from one status: exactly one applies', async () => {
    const { namespace } = namespaceOf();
    const stores = Array.from({ length: 6 }, () => new DurableObjectTaskStore(namespace));
    await stores[0].create(task({ status: 'input_required' }));
    const moved = await Promise.all(
      stores.map((store, index) => store.transition('t1', ['input_required'], { status: index % 2 ? 'cancelled' : 'working' }))
    );
    expect(moved.filter((record) => record !== undefined)).toHaveLength(1);
  });

  test('settled() resolves once the task this isolate runs has left working (what a Worker passes to waitUntil)', async () => {
    const { namespace } = namespaceOf();
    const store = new DurableObjectTaskStore(namespace);
    await store.settled(); // nothing runs: at once
    await store.create(task());
    let settled = false;
    const waiting = store.settled().then(() => (settled = true));
    await store.transition('t1', ['working'], { statusMessage: 'half way' });
    await Promise.resolve();
    expect(settled).toBe(false);
    await store.transition('t1', ['working'], { status: 'completed', result: { content: [] } });
    await waiting;
    expect(settled).toBe(true);
  });

  test("a task left working past maxRunMs by another isolate (its run cut off) is read as failed, with the app's error", async () => {
    const { namespace } = namespaceOf();
    const runner = new DurableObjectTaskStore(namespace, { maxRunMs: 1_000 });
    const reader = new DurableObjectTaskStore(namespace, { maxRunMs: 1_000 });
    await reader.failOrphans({ code: -32603, message: 'interrupted', data: { code: 'TASK_INTERRUPTED' } });
    await runner.create(task({ lastUpdatedAt: Date.now() - 5_000 }));
    await runner.create(task({ taskId: 't2' }));
    const read = await reader.get('t1');
    expect(read).toMatchObject({ status: 'failed', error: { code: -32603, data: { code: 'TASK_INTERRUPTED' } } });
    expect(read?.statusMessage).toMatch(/run of this task ended before it recorded an outcome/);
    expect((await reader.listLive()).map((record) => record.taskId)).toEqual(['t2']);
    // The run, had it gone on, records nothing over it: terminal statuses are never left.
    expect(await runner.transition('t1', ['working'], { status: 'completed' })).toBeUndefined();
  });

  test('a result too large for the object fails its task, saying so, and releases settled()', async () => {
    const { namespace } = namespaceOf();
    const store = new DurableObjectTaskStore(namespace);
    await store.failOrphans({ code: -32603, message: 'interrupted' });
    await store.create(task());
    const huge = { content: [{ type: 'text', text: 'x'.repeat(700_000) }] };
    const ended = await store.transition('t1', ['working'], { status: 'completed', result: huge });
    expect(ended).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect(ended?.statusMessage).toMatch(/larger than the 600000 characters/);
    expect((await store.get('t1'))?.status).toBe('failed');
    await store.settled();
  });

  test('expired records are swept and read as absent', async () => {
    const { namespace } = namespaceOf();
    const store = new DurableObjectTaskStore(namespace);
    await store.create(task({ createdAt: Date.now() - 120_000, ttlMs: 60_000 }));
    expect(await store.get('t1')).toBeUndefined();
    expect(await store.sweep(Date.now())).toEqual(['t1']);
    expect(await store.countLive()).toBe(0);
  });
});

describe('FusionStateObject refuses bad requests, naming the problem, and stays up', () => {
  const { namespace, objects } = namespaceOf();
  const send = async (init: RequestInit) => {
    namespace.get(namespace.idFromName('x'));
    await new DurableObjectTaskStore(namespace, { name: 'x' }).countLive();
    const response = await objects.get('x')!.object.fetch(new Request('https://fusion-state.internal/', init));
    return { status: response.status, body: (await response.json()) as { error?: string; value?: unknown } };
  };

  test.each([
    ['a GET', { method: 'GET' }, 405, /POST/],
    ['a body that is not JSON', { method: 'POST', body: 'not json' }, 400, /not JSON/],
    ['an array', { method: 'POST', body: '[1]' }, 400, /JSON object with an "op"/],
    ['an unknown op', { method: 'POST', body: '{"op":"drop-all"}' }, 400, /unknown "op" "drop-all"/],
    ['a missing TTL', { method: 'POST', body: '{"op":"consume","id":"s"}' }, 400, /"ttlMs" must be a whole number/],
    [
      'an empty id',
      { method: 'POST', body: '{"op":"claim","id":"","fingerprint":"f","owner":"o","ttlMs":1,"leaseMs":1}' },
      400,
      /"id" must be a non-empty string/
    ],
    [
      'an outcome that is not JSON',
      { method: 'POST', body: '{"op":"record","id":"r","owner":"o","outcome":"{nope"}' },
      400,
      /"outcome" must be a JSON text/
    ],
    ['an id too long', { method: 'POST', body: JSON.stringify({ op: 'consume', id: 'x'.repeat(600), ttlMs: 5 }) }, 400, /longer than 512/]
  ])('%s → %i, naming it', async (_what, init, status, message) => {
    const answer = await send(init);
    expect(answer.status).toBe(status);
    expect(answer.body.error).toMatch(message);
    // Still serving, nothing written by the refused request.
    expect((await send({ method: 'POST', body: '{"op":"task.count"}' })).body).toEqual({ value: 0 });
  });

  test('the stores turn a refusal into an error naming the operation', async () => {
    const store = new DurableObjectContinuationStore(namespace, { key: KEY });
    const refused = store.consume('');
    await expect(refused).rejects.toThrow(
      /FusionStateObject refused "consume" \(400\): bad state request: "id" must be a non-empty string/
    );
    // The framework's one error class, with a stable code, as the Redis lock's failures are.
    await expect(refused).rejects.toBeInstanceOf(StateObjectError);
    await expect(refused).rejects.toMatchObject({ code: ErrorCode.INTERNAL });
  });
});
