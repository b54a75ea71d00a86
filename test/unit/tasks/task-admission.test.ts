import { AppClosedError, TaskLimitError, TaskNotFoundError } from '../../../src/errors';
import type { TaskAdmission } from '../../../src/types/tasks';
import { InMemoryTaskStore, type TaskStore } from '../../../src/tasks/task-store';
import type { TaskRecord } from '../../../src/tasks/task-record';
import { ALICE, BOB, STORES, closeSqlite, inputRequired, ok, startTask, tasksOn, type TasksUnderTest } from './tasks-under-test';

/**
 * Which task requests are let in, and whose tasks are whose (src/tasks/task-admission.ts): the
 * live-task limit counts stored live tasks and admitted requests not yet stored (so concurrent
 * requests cannot pass it together); a task is created bound to its caller with its settings.
 */

afterEach(() => jest.restoreAllMocks());
afterAll(() => closeSqlite());

/** Admits a request of `caller`, or says why not. */
const tryAdmit = (t: TasksUnderTest, caller = ALICE): Promise<{ admission?: TaskAdmission; error?: unknown }> =>
  t.tasks.admissions.admit(caller).then(
    (admission) => ({ admission }),
    (error: unknown) => ({ error })
  );

describe.each(STORES)('task admission on %s', (_name, makeStore) => {
  it("a created task: bound to its caller, with copies of the arguments and capabilities, the tool's TTL and poll interval over the app's", async () => {
    const t = tasksOn(makeStore(), { ttlMs: 10_000, pollIntervalMs: 500 });
    const viaDefaults = await startTask(t.tasks, ALICE);
    const viaTool = await startTask(t.tasks, BOB, { support: 'required', ttlMs: 2_000, pollIntervalMs: 100 }, 'Started');
    const first = (await t.tasks.record(viaDefaults.taskId))!;
    expect(first).toEqual({
      taskId: viaDefaults.taskId,
      principal: 'alice',
      quotaKey: 'alice',
      toolName: 'refund',
      arguments: { amount: 5 },
      clientCapabilities: ALICE.clientCapabilities!,
      status: 'working',
      createdAt: expect.any(Number),
      lastUpdatedAt: first.createdAt,
      ttlMs: 10_000,
      pollIntervalMs: 500,
      rounds: 0
    } satisfies TaskRecord);
    expect(await t.tasks.record(viaTool.taskId)).toMatchObject({
      principal: 'bob',
      ttlMs: 2_000,
      pollIntervalMs: 100,
      statusMessage: 'Started'
    });
    expect(viaDefaults.taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(viaTool.taskId).not.toBe(viaDefaults.taskId);
  });

  it('maxLiveTasks: working and input_required tasks count; a finished one frees its place', async () => {
    const t = tasksOn(makeStore(), { maxLiveTasks: 2 });
    const working = await startTask(t.tasks);
    const waiting = await startTask(t.tasks);
    await waiting.handle.settle({ value: inputRequired(['approval'], 's') });
    const refused = await tryAdmit(t);
    expect(refused.error).toBeInstanceOf(TaskLimitError);
    expect((refused.error as Error).message).toBe('Server busy: 2 tasks are already running or waiting. Retry later.');

    await working.handle.settle({ value: ok('done') });
    const admitted = await tryAdmit(t);
    expect(admitted.admission).toBeDefined();
    admitted.admission!.release();
  });

  it('an admitted request that is not stored yet holds a place until it is released (once: a second release frees nothing)', async () => {
    const t = tasksOn(makeStore(), { maxLiveTasks: 2 });
    const first = (await tryAdmit(t)).admission!;
    const second = (await tryAdmit(t)).admission!;
    expect((await tryAdmit(t)).error).toBeInstanceOf(TaskLimitError);
    first.release();
    first.release();
    const third = (await tryAdmit(t)).admission!;
    expect((await tryAdmit(t)).error).toBeInstanceOf(TaskLimitError);
    // A stored task counts as stored, not twice: created and released, it still holds one place.
    await third.create('refund', { support: 'optional' }, undefined, () => undefined);
    third.release();
    second.release();
    const fourth = (await tryAdmit(t)).admission!;
    expect((await tryAdmit(t)).error).toBeInstanceOf(TaskLimitError);
    fourth.release();
  });

  it('concurrent admissions never pass the limit together, and fill the places left', async () => {
    const t = tasksOn(makeStore(), { maxLiveTasks: 3 });
    await startTask(t.tasks); // one live already: two places left
    const answers = await Promise.all(Array.from({ length: 8 }, () => tryAdmit(t)));
    const admitted = answers.flatMap((a) => (a.admission ? [a.admission] : []));
    expect(admitted).toHaveLength(2);
    expect(answers.filter((a) => a.error !== undefined).map((a) => a.error)).toEqual(
      Array.from({ length: 6 }, () => expect.any(TaskLimitError))
    );
    // Those admitted become tasks; then the limit is reached for everyone.
    await Promise.all(
      admitted.map((a) => a.create('refund', { support: 'optional' }, undefined, () => undefined).finally(() => a.release()))
    );
    expect(await t.store.countLive()).toBe(3);
    expect((await tryAdmit(t)).error).toBeInstanceOf(TaskLimitError);
  });

  it('concurrent task starts (admit, store, release, as the task-escalation step does) end with exactly maxLiveTasks live tasks', async () => {
    const t = tasksOn(makeStore(), { maxLiveTasks: 4 });
    const started = await Promise.allSettled(Array.from({ length: 12 }, () => startTask(t.tasks)));
    const created = started.filter((s) => s.status === 'fulfilled').length;
    expect(created).toBe(4);
    expect(await t.store.countLive()).toBe(4);
    for (const refused of started.filter((s) => s.status === 'rejected')) expect(refused.reason).toBeInstanceOf(TaskLimitError);
  });

  it('expired tasks do not count: the admission sweeps them', async () => {
    const t = tasksOn(makeStore(), { maxLiveTasks: 1, ttlMs: 1_000 });
    const { taskId, aborts } = await startTask(t.tasks);
    expect((await tryAdmit(t)).error).toBeInstanceOf(TaskLimitError);
    const { createdAt } = (await t.tasks.record(taskId))!;
    jest.spyOn(Date, 'now').mockReturnValue(createdAt + 2_000);
    const admitted = (await tryAdmit(t)).admission!;
    expect(admitted).toBeDefined();
    admitted.release();
    expect(await t.tasks.record(taskId)).toBeUndefined();
    expect(aborts).toEqual(['the task expired (ttlMs)']);
  });

  it('own(): the task for its caller; anyone else, an unknown, empty or expired id: TaskNotFoundError', async () => {
    const t = tasksOn(makeStore(), { ttlMs: 1_000 });
    const { taskId } = await startTask(t.tasks, ALICE);
    await expect(t.tasks.admissions.own(taskId, ALICE)).resolves.toMatchObject({ taskId, principal: 'alice' });
    await expect(t.tasks.admissions.own(taskId, BOB)).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(t.tasks.admissions.own('no-such-task', ALICE)).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(t.tasks.admissions.own('', ALICE)).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(t.tasks.admissions.own(42 as unknown as string, ALICE)).rejects.toBeInstanceOf(TaskNotFoundError);
    const { createdAt } = (await t.tasks.record(taskId))!;
    jest.spyOn(Date, 'now').mockReturnValue(createdAt + 1_000);
    await expect(t.tasks.admissions.own(taskId, ALICE)).rejects.toBeInstanceOf(TaskNotFoundError);
  });

  it('after close, nothing is admitted', async () => {
    const t = tasksOn(makeStore());
    t.tasks.close();
    expect((await tryAdmit(t)).error).toBeInstanceOf(AppClosedError);
  });
});

describe("task admission waits for the previous process's tasks to be settled", () => {
  /** A store whose startup settling (`failOrphans`) ends when the test says. */
  class SlowStartStore extends InMemoryTaskStore {
    private finish: ((count: number) => void) | undefined;

    override failOrphans(): Promise<number> {
      return new Promise((resolve) => (this.finish = resolve));
    }

    done(count: number): void {
      this.finish!(count);
    }
  }

  it('admit and own resolve only once failOrphans has', async () => {
    const store = new SlowStartStore();
    const t = tasksOn(store); // asks the store to settle them, at once
    let admission: TaskAdmission | undefined;
    const admitting = t.tasks.admissions.admit(ALICE).then((a) => (admission = a));
    let looked = false;
    const looking = t.tasks.admissions.own('x', ALICE).catch(() => (looked = true));
    // Turns of the event loop pass; neither answers while the store is still settling.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(admission).toBeUndefined();
    expect(looked).toBe(false);
    store.done(2);
    await admitting;
    await looking;
    expect(admission).toBeDefined();
    expect(looked).toBe(true);
    expect(t.log).toHaveBeenCalledWith('tasks: 2 task(s) left running by an earlier process were settled to failed');
  });

  it('a store that cannot settle them is logged, and tasks are admitted anyway', async () => {
    const store: TaskStore = new InMemoryTaskStore();
    store.failOrphans = () => Promise.reject(new Error('store offline'));
    const t = tasksOn(store);
    const admission = await t.tasks.admissions.admit(ALICE);
    admission.release();
    expect(t.log).toHaveBeenCalledWith('tasks: could not settle tasks of an earlier process: Error: store offline');
  });
});

describe('a task whose record could not be stored', () => {
  // The run's abort is registered before the store is written: a refused record must take it out again (found by this test).
  it('leaves no run behind: a shutdown aborts nothing of it', async () => {
    const store = new InMemoryTaskStore();
    store.create = () => Promise.reject(new Error('disk full'));
    const t = tasksOn(store);
    const admission = await t.tasks.admissions.admit(ALICE);
    const aborts: unknown[] = [];
    await expect(admission.create('refund', { support: 'optional' }, undefined, (reason) => aborts.push(reason))).rejects.toThrow(
      'disk full'
    );
    admission.release();
    t.tasks.close();
    expect(aborts).toEqual([]);
  });
});
