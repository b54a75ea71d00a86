import { TaskNotFoundError } from '../../../src/errors';
import { InMemoryTaskStore } from '../../../src/tasks/task-store';
import { SqliteTaskStore } from '../../../src/tasks/sqlite-task-store';
import {
  ALICE,
  ANONYMOUS,
  BOB,
  STORES,
  closeSqlite,
  inputRequired,
  ok,
  openSqlite,
  startTask,
  tasksOn,
  type TasksUnderTest
} from './tasks-under-test';

/**
 * A task's life after it is created (src/tasks/task-lifecycle.ts), with real stores: a round's
 * outcome settles it, `tasks/update` collects answers and re-enters the handler (a `runRound`
 * the test controls), `tasks/cancel` ends it, only its caller sees it, it expires, and a shutdown
 * fails what is running. Every transition is checked on both stores.
 */

const ACK = { resultType: 'complete' };
const TOOL_ERROR = { isError: true, content: [{ type: 'text', text: 'The job failed: out of paper' }] };

afterEach(() => jest.restoreAllMocks());
afterAll(() => closeSqlite());

describe.each(STORES)('the task lifecycle on %s', (_name, makeStore) => {
  let t: TasksUnderTest;
  beforeEach(() => {
    t = tasksOn(makeStore());
  });

  const record = async (taskId: string) => (await t.tasks.record(taskId))!;
  const view = (taskId: string, caller = ALICE) => t.tasks.lifecycle.get(taskId, caller);

  describe('created', () => {
    it('a new task is working; its CreateTaskResult is flat, tasks/get shows the detailed task', async () => {
      const { handle, taskId } = await startTask(t.tasks, ALICE, { support: 'optional', ttlMs: 60_000, pollIntervalMs: 250 }, 'Queued');
      expect(handle.created).toEqual({
        resultType: 'task',
        taskId,
        status: 'working',
        statusMessage: 'Queued',
        createdAt: expect.any(String),
        lastUpdatedAt: expect.any(String),
        ttlMs: 60_000,
        pollIntervalMs: 250
      });
      const seen = await view(taskId);
      expect(seen).toEqual({ ...handle.created, resultType: 'complete' });
      expect(await record(taskId)).toMatchObject({
        principal: 'alice',
        toolName: 'refund',
        arguments: { amount: 5 },
        status: 'working',
        rounds: 0
      });
    });

    it("a working task's progress is its status message (in memory, not written to the store), until the round ends", async () => {
      const { handle, taskId } = await startTask(t.tasks);
      const changed = t.tasks.watchers.nextChange(taskId);
      handle.report('half');
      await changed;
      expect(await view(taskId)).toMatchObject({ status: 'working', statusMessage: 'half' });
      expect((await record(taskId)).statusMessage).toBeUndefined();
      await handle.settle({ value: ok('done') });
      expect(await view(taskId)).toMatchObject({ status: 'completed', statusMessage: 'Completed' });
    });
  });

  describe("settle: a round's outcome is the next status", () => {
    it('a result: completed, the result inlined by tasks/get', async () => {
      const { handle, taskId } = await startTask(t.tasks);
      const changed = t.tasks.watchers.nextChange(taskId);
      await handle.settle({ value: { ...ok('Refunded $5'), resultType: 'complete' } });
      await changed; // watchers are told
      const seen = await view(taskId);
      expect(seen).toMatchObject({
        status: 'completed',
        statusMessage: 'Completed',
        result: { ...ok('Refunded $5'), resultType: 'complete' }
      });
      expect(seen).not.toHaveProperty('error');
      expect(seen).not.toHaveProperty('inputRequests');
    });

    it('an isError result: completed (a tool error is a result), saying so', async () => {
      const { handle, taskId } = await startTask(t.tasks);
      await handle.settle({ value: { ...TOOL_ERROR, resultType: 'complete' } });
      expect(await view(taskId)).toMatchObject({
        status: 'completed',
        statusMessage: 'Completed with a tool error',
        result: { ...TOOL_ERROR, resultType: 'complete' }
      });
    });

    it('an error: failed, with the JSON-RPC error object as its error and message', async () => {
      const { handle, taskId } = await startTask(t.tasks);
      await handle.settle({ error: { code: -32603, message: 'disk on fire' } });
      const seen = await view(taskId);
      expect(seen).toMatchObject({ status: 'failed', statusMessage: 'disk on fire', error: { code: -32603, message: 'disk on fire' } });
      expect(seen).not.toHaveProperty('result');
    });

    it('a request for input: input_required, under task-unique keys <key>#<round>; the sealed state stays in the record', async () => {
      const { handle, taskId } = await startTask(t.tasks);
      await handle.settle({ value: inputRequired(['approval', 'note'], 'sealed-1') });
      const seen = await view(taskId);
      expect(seen).toMatchObject({ status: 'input_required', statusMessage: 'Waiting for input' });
      expect(Object.keys(seen.inputRequests as object)).toEqual(['approval#1', 'note#1']);
      expect((seen.inputRequests as Record<string, { params: { message: string } }>)['approval#1'].params.message).toBe('Answer approval');
      expect(seen).not.toHaveProperty('requestState');
      expect(await record(taskId)).toMatchObject({
        rounds: 1,
        requestState: 'sealed-1',
        inputKeys: { 'approval#1': 'approval', 'note#1': 'note' },
        inputResponses: {}
      });
    });
  });

  describe('terminal statuses never change', () => {
    it.each([
      ['completed', { value: ok('done') }],
      ['failed', { error: { code: -32603, message: 'boom' } }]
    ] as const)('%s: a later settle, update or cancel leaves it as it is', async (status, outcome) => {
      const { handle, taskId, aborts } = await startTask(t.tasks);
      await handle.settle(outcome);
      const settled = await record(taskId);
      expect(settled.status).toBe(status);

      await handle.settle({ error: { code: -32603, message: 'late failure' } });
      await handle.settle({ value: ok('late result') });
      await handle.settle({ value: inputRequired(['again'], 'late') });
      await expect(t.tasks.lifecycle.update(taskId, { 'again#1': true }, ALICE)).resolves.toEqual(ACK);
      await expect(t.tasks.lifecycle.cancel(taskId, ALICE)).resolves.toEqual(ACK);
      // Not even a transition that lists the terminal status applies.
      await expect(
        t.store.transition(taskId, ['working', 'input_required', 'completed', 'failed', 'cancelled'], { status: 'working' })
      ).resolves.toBeUndefined();

      expect(await record(taskId)).toEqual(settled);
      expect(aborts).toEqual([]);
      expect(t.rounds.started).toEqual([]);
    });

    it('cancelled: an outcome arriving after the task was cancelled is not recorded', async () => {
      const { handle, taskId } = await startTask(t.tasks);
      const cancelling = t.tasks.lifecycle.cancel(taskId, ALICE);
      await handle.settle({ cancelled: 'The call was cancelled' });
      await cancelling;
      await handle.settle({ value: ok('finished anyway') });
      expect(await view(taskId)).toMatchObject({ status: 'cancelled', statusMessage: 'Cancelled by the client' });
      expect(await view(taskId)).not.toHaveProperty('result');
    });

    it('a run that completed before it saw the cancel completes with its result: the status agrees with what happened', async () => {
      const { handle, taskId, aborts, aborted } = await startTask(t.tasks);
      const cancelling = t.tasks.lifecycle.cancel(taskId, ALICE);
      await aborted;
      expect(aborts).toEqual(['cancelled by the client (tasks/cancel)']);
      await handle.settle({ value: ok('refunded') });
      await expect(cancelling).resolves.toEqual(ACK);
      expect(await view(taskId)).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'refunded' }] } });
    });

    it('a run on another instance is asked to stop (recorded, announced); if it asks for input instead, it is cancelled', async () => {
      const { handle, taskId } = await startTask(t.tasks);
      const announced: string[] = [];
      t.store.announceCancel = (id: string) => void announced.push(id);
      // The run is elsewhere: this instance does not hold it.
      t.tasks.lifecycle['runs'].running.delete(taskId);
      await t.tasks.lifecycle.cancel(taskId, ALICE);
      expect(announced).toEqual([taskId]);
      expect(await view(taskId)).toMatchObject({ status: 'working', statusMessage: 'Cancelling' });
      await handle.settle({ value: inputRequired(['approval'], 's') });
      expect((await view(taskId)).status).toBe('cancelled');
    });
  });

  describe('tasks/update', () => {
    it('partial answers are kept; once every request is answered the handler is re-entered with them, under its own keys, in task mode', async () => {
      const { handle, taskId } = await startTask(t.tasks);
      await handle.settle({ value: inputRequired(['approval', 'note'], 'sealed-1') });

      const approval = { action: 'accept', content: { confirm: true } };
      await expect(t.tasks.lifecycle.update(taskId, { 'approval#1': approval }, ALICE)).resolves.toEqual(ACK);
      const partial = await view(taskId);
      expect(partial.status).toBe('input_required');
      expect(Object.keys(partial.inputRequests as object)).toEqual(['note#1']);
      expect((await record(taskId)).inputResponses).toEqual({ 'approval#1': approval });
      expect(t.rounds.started).toEqual([]);

      const note = { action: 'accept', content: { text: 'thanks' } };
      const next = t.rounds.next();
      await expect(t.tasks.lifecycle.update(taskId, { 'note#1': note }, ALICE)).resolves.toEqual(ACK);
      const { toolName, request } = await next;
      expect(t.rounds.started).toHaveLength(1);
      expect(await view(taskId)).toMatchObject({ status: 'working', statusMessage: 'Working' });
      expect(toolName).toBe('refund');
      expect(request).toMatchObject({
        subject: 'refund',
        mode: 'task',
        era: 'modern',
        arguments: { amount: 5 },
        clientCapabilities: ALICE.clientCapabilities,
        requestState: 'sealed-1',
        inputResponses: { approval, note },
        authInfo: ALICE.authInfo
      });
      expect(request.task?.taskId).toBe(taskId);
      expect(request.signal?.aborted).toBe(false);
      expect(request.sendProgress).toBeUndefined();
      expect(request.sendLog).toBeUndefined();

      // The round asks again: new task-unique keys; answering them re-enters again; its result completes the task.
      await request.task!.settle({ value: inputRequired(['approval'], 'sealed-2') });
      expect(Object.keys((await view(taskId)).inputRequests as object)).toEqual(['approval#2']);
      const third = t.rounds.next();
      await t.tasks.lifecycle.update(taskId, { 'approval#2': approval }, ALICE);
      const round3 = await third;
      expect(round3.request).toMatchObject({ requestState: 'sealed-2', inputResponses: { approval } });
      await round3.request.task!.settle({ value: ok('Refunded $5') });
      expect(await view(taskId)).toMatchObject({ status: 'completed', result: ok('Refunded $5') });
      expect(t.rounds.started).toHaveLength(2);
    });

    it('answers to keys that are not outstanding are ignored: the record is left as it is and nothing is re-entered', async () => {
      const { handle, taskId } = await startTask(t.tasks);
      await handle.settle({ value: inputRequired(['approval'], 'sealed-1') });
      const before = await record(taskId);
      const answer = { action: 'accept', content: { confirm: true } };
      for (const answers of [{}, { approval: answer }, { 'approval#2': answer }, { 'other#1': answer }, { 'approval#1': undefined }]) {
        await expect(t.tasks.lifecycle.update(taskId, answers, ALICE)).resolves.toEqual(ACK);
      }
      expect(await record(taskId)).toEqual(before);
      expect(t.rounds.started).toEqual([]);
    });

    it('an answer that is already in does not count twice, and one that comes with unknown keys is still taken', async () => {
      const { handle, taskId } = await startTask(t.tasks);
      await handle.settle({ value: inputRequired(['a', 'b'], 's') });
      await t.tasks.lifecycle.update(taskId, { 'a#1': 1 }, ALICE);
      await t.tasks.lifecycle.update(taskId, { 'a#1': 2 }, ALICE); // no longer outstanding: ignored
      expect((await record(taskId)).inputResponses).toEqual({ 'a#1': 1 });
      const next = t.rounds.next();
      await t.tasks.lifecycle.update(taskId, { 'b#1': 3, 'zzz#1': 4 }, ALICE);
      expect((await next).request.inputResponses).toEqual({ a: 1, b: 3 });
    });

    it('a task that is not waiting for input acks the update and stays as it is', async () => {
      const { taskId } = await startTask(t.tasks);
      const before = await record(taskId);
      await expect(t.tasks.lifecycle.update(taskId, { 'approval#1': true }, ALICE)).resolves.toEqual(ACK);
      expect(await record(taskId)).toEqual(before);
      expect(t.rounds.started).toEqual([]);
    });
  });

  describe('tasks/cancel', () => {
    it('a working task running here: its run is stopped, and the cancel answers once the run ended it cancelled', async () => {
      const { handle, taskId, aborts, aborted } = await startTask(t.tasks);
      const cancelling = t.tasks.lifecycle.cancel(taskId, ALICE);
      await aborted;
      expect(aborts).toEqual(['cancelled by the client (tasks/cancel)']);
      expect((await view(taskId)).status).toBe('working');
      await handle.settle({ cancelled: 'The call was cancelled: cancelled by the client (tasks/cancel)' });
      await expect(cancelling).resolves.toEqual(ACK);
      expect(await view(taskId)).toMatchObject({ status: 'cancelled', statusMessage: 'Cancelled by the client' });
    });

    it('a task waiting for input: cancelled (no run to abort); answers after it are ignored', async () => {
      const { handle, taskId, aborts } = await startTask(t.tasks);
      await handle.settle({ value: inputRequired(['approval'], 's') });
      await t.tasks.lifecycle.cancel(taskId, ALICE);
      expect(aborts).toEqual([]);
      await t.tasks.lifecycle.update(taskId, { 'approval#1': true }, ALICE);
      expect((await view(taskId)).status).toBe('cancelled');
      expect(t.rounds.started).toEqual([]);
    });

    it('a later round running: its signal is aborted', async () => {
      const { handle, taskId } = await startTask(t.tasks);
      await handle.settle({ value: inputRequired(['approval'], 's') });
      const next = t.rounds.next();
      await t.tasks.lifecycle.update(taskId, { 'approval#1': true }, ALICE);
      const { request } = await next;
      const aborted = new Promise<void>((resolve) => request.signal?.addEventListener('abort', () => resolve(), { once: true }));
      const cancelling = t.tasks.lifecycle.cancel(taskId, ALICE);
      await aborted;
      expect(request.signal?.aborted).toBe(true);
      expect(request.signal?.reason).toBe('cancelled by the client (tasks/cancel)');
      await request.task!.settle({ cancelled: 'The call was cancelled' });
      await cancelling;
      expect((await view(taskId)).status).toBe('cancelled');
    });

    it('a finished task: acked, left as it is, nothing aborted', async () => {
      const { handle, taskId, aborts } = await startTask(t.tasks);
      await handle.settle({ value: ok('done') });
      const before = await record(taskId);
      await expect(t.tasks.lifecycle.cancel(taskId, ALICE)).resolves.toEqual(ACK);
      expect(await record(taskId)).toEqual(before);
      expect(aborts).toEqual([]);
    });
  });

  describe("ownership: a task is its caller's", () => {
    it('another caller is told it does not exist (get, update, cancel), and the task is untouched', async () => {
      const { handle, taskId, aborts } = await startTask(t.tasks, ALICE);
      await handle.settle({ value: inputRequired(['approval'], 's') });
      const before = await record(taskId);
      for (const caller of [BOB, ANONYMOUS]) {
        await expect(t.tasks.lifecycle.get(taskId, caller)).rejects.toBeInstanceOf(TaskNotFoundError);
        await expect(t.tasks.lifecycle.update(taskId, { 'approval#1': true }, caller)).rejects.toBeInstanceOf(TaskNotFoundError);
        await expect(t.tasks.lifecycle.cancel(taskId, caller)).rejects.toBeInstanceOf(TaskNotFoundError);
      }
      expect(await record(taskId)).toEqual(before);
      expect(aborts).toEqual([]);
      expect(t.rounds.started).toEqual([]);
    });

    it("an anonymous caller's task is an anonymous caller's: not a token holder's", async () => {
      const { taskId } = await startTask(t.tasks, ANONYMOUS);
      expect((await record(taskId)).principal).toBeNull();
      await expect(view(taskId, ANONYMOUS)).resolves.toMatchObject({ status: 'working' });
      await expect(view(taskId, ALICE)).rejects.toBeInstanceOf(TaskNotFoundError);
    });

    it("an unknown or empty id is not found, with the same error as another caller's task", async () => {
      const { message } = new TaskNotFoundError();
      await expect(view('00000000-0000-0000-0000-000000000000')).rejects.toThrow(message);
      await expect(view('')).rejects.toThrow(message);
    });
  });

  describe('expiry', () => {
    it('past its TTL a task is not found, its record is swept and its run aborted; a task within it is found', async () => {
      const { taskId, aborts } = await startTask(t.tasks, ALICE, { support: 'optional', ttlMs: 1000 });
      const { createdAt } = await record(taskId);
      const now = jest.spyOn(Date, 'now').mockReturnValue(createdAt + 999);
      await expect(view(taskId)).resolves.toMatchObject({ status: 'working' });
      expect(aborts).toEqual([]);

      // Refused on read at once; removed by the sweeper, which runs at most once a second.
      now.mockReturnValue(createdAt + 1000);
      await expect(view(taskId)).rejects.toBeInstanceOf(TaskNotFoundError);
      now.mockReturnValue(createdAt + 2000);
      await expect(view(taskId)).rejects.toBeInstanceOf(TaskNotFoundError);
      expect(await t.tasks.record(taskId)).toBeUndefined();
      expect(aborts).toEqual(['the task expired (ttlMs)']);
    });

    it('a finished task keeps its result until its TTL, then is gone', async () => {
      const { handle, taskId } = await startTask(t.tasks, ALICE, { support: 'optional', ttlMs: 5000 });
      await handle.settle({ value: ok('done') });
      const { createdAt } = await record(taskId);
      jest.spyOn(Date, 'now').mockReturnValue(createdAt + 4999);
      await expect(view(taskId)).resolves.toMatchObject({ status: 'completed', result: ok('done') });
      jest.spyOn(Date, 'now').mockReturnValue(createdAt + 5000);
      await expect(view(taskId)).rejects.toBeInstanceOf(TaskNotFoundError);
    });
  });

  describe('close (graceful shutdown)', () => {
    it('fails the tasks running in this process (aborting their runs); tasks waiting for input keep waiting; no new task is admitted', async () => {
      const running = await startTask(t.tasks);
      const waiting = await startTask(t.tasks);
      await waiting.handle.settle({ value: inputRequired(['approval'], 's') });
      const failed = t.tasks.watchers.nextChange(running.taskId);
      t.tasks.close();
      await failed;
      expect(running.aborts).toEqual(['the server is shutting down']);
      expect(await view(running.taskId)).toMatchObject({
        status: 'failed',
        statusMessage: 'The server shut down while this task was running.',
        error: { code: -32603, message: 'The server shut down while this task was running.' }
      });
      expect((await view(waiting.taskId)).status).toBe('input_required');
      expect(waiting.aborts).toEqual([]);
      await expect(t.tasks.admissions.admit(ALICE)).rejects.toMatchObject({ code: 'APP_CLOSED' });
    });

    it('a run that settles after the shutdown failed its task does not change it', async () => {
      const { handle, taskId } = await startTask(t.tasks);
      const failed = t.tasks.watchers.nextChange(taskId);
      t.tasks.close();
      await failed;
      await handle.settle({ value: ok('too late') });
      expect((await view(taskId)).status).toBe('failed');
    });
  });
});

describe('SqliteTaskStore: a restart', () => {
  it('a task left working by the previous process fails; one waiting for input can still be answered, and is re-entered by the new process', async () => {
    const first = tasksOn(new SqliteTaskStore(openSqlite('restart.db')));
    const working = await startTask(first.tasks);
    const waiting = await startTask(first.tasks);
    await waiting.handle.settle({ value: inputRequired(['approval'], 'sealed-1') });
    // The process dies: nothing of it runs any more (no close).

    const second = tasksOn(new SqliteTaskStore(openSqlite('restart.db')));
    await expect(second.tasks.lifecycle.get(working.taskId, ALICE)).resolves.toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'The server restarted while this task was running; its work was not resumed.' }
    });
    expect(second.log).toHaveBeenCalledWith('tasks: 1 task(s) left running by an earlier process were settled to failed');
    const next = second.rounds.next();
    await second.tasks.lifecycle.update(waiting.taskId, { 'approval#1': { action: 'accept', content: { confirm: true } } }, ALICE);
    const { request } = await next;
    expect(request).toMatchObject({
      requestState: 'sealed-1',
      inputResponses: { approval: { action: 'accept', content: { confirm: true } } }
    });
    expect(first.rounds.started).toEqual([]);
  });
});

describe('InMemoryTaskStore', () => {
  it('hands out copies: changing what it returned changes nothing it keeps', async () => {
    const t = tasksOn(new InMemoryTaskStore());
    const { taskId } = await startTask(t.tasks);
    const copy = (await t.store.get(taskId))!;
    copy.status = 'completed';
    (copy.arguments as Record<string, unknown>).amount = 500;
    expect(await t.store.get(taskId)).toMatchObject({ status: 'working', arguments: { amount: 5 } });
  });
});
