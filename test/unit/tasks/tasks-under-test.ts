import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ErrorBoundary, jsonRpcErrorObject } from '../../../src/pipeline/error-boundary';
import { AppTasks, TaskIntake, type TaskSettings } from '../../../src/tasks/app-tasks';
import { SqliteTaskStore } from '../../../src/tasks/sqlite-task-store';
import { InMemoryTaskStore, type TaskStore } from '../../../src/tasks/task-store';
import type { CallRequest } from '../../../src/types/request';
import type { TaskRound } from '../../../src/tasks/task-lifecycle';
import type { TaskCaller, TaskHandle, ToolTaskSupport } from '../../../src/types/tasks';

/**
 * What the unit tests of src/tasks/ share: an app's tasks (`AppTasks`, its roles wired as the
 * composition root wires them) over a real store, whose later rounds go to a `runRound` the test
 * controls, and callers told apart by their token's client id.
 */

const TASKS = 'io.modelcontextprotocol/tasks';

/** A request of a caller that declared the tasks extension (`clientId` is its principal; none: an anonymous caller). */
export function callerOf(clientId?: string): CallRequest {
  return {
    subject: 'refund',
    arguments: { amount: 5 },
    clientCapabilities: { elicitation: { form: {} }, extensions: { [TASKS]: {} } },
    era: 'modern',
    ...(clientId !== undefined ? { authInfo: { token: `token-of-${clientId}`, clientId, scopes: [] } } : {})
  };
}

export const ALICE = callerOf('alice');
export const BOB = callerOf('bob');
export const ANONYMOUS = callerOf();

/** One later round the lifecycle started (after `tasks/update` answered every request). */
export interface Round {
  readonly toolName: string;
  readonly request: CallRequest;
}

/** The later rounds started, in order; `next()` resolves with the next one (already started or not). */
export class Rounds {
  readonly started: Round[] = [];
  private waiting: ((round: Round) => void)[] = [];

  /** The lifecycle's `runRound`: the round as the composition root runs it (a call of the resuming caller, in task mode). */
  readonly run = (taskRound: TaskRound, resumedBy: TaskCaller): void => {
    const { toolName, task, signal, ...given } = taskRound;
    const request: CallRequest = { ...resumedBy, ...given, subject: toolName, era: 'modern', mode: 'task', signal, task, trace: undefined };
    const round = { toolName, request };
    this.started.push(round);
    for (const resolve of this.waiting.splice(0)) resolve(round);
  };

  next(): Promise<Round> {
    const seen = this.started.length;
    return new Promise((resolve) => {
      if (this.started.length > seen) resolve(this.started[seen]);
      else this.waiting.push(resolve);
    });
  }
}

/** An app's tasks under test, with what they were given. */
export interface TasksUnderTest {
  readonly tasks: AppTasks;
  readonly store: TaskStore;
  readonly rounds: Rounds;
  readonly log: jest.Mock;
}

/** Builds the tasks of an app on `store`, as `assembleApp` does (the boundary's error objects, `principalOf` by client id). */
export function tasksOn(store: TaskStore, settings: TaskSettings = {}): TasksUnderTest {
  const log = jest.fn();
  const rounds = new Rounds();
  const boundary = new ErrorBoundary(false, log);
  const intake = new TaskIntake(
    store,
    settings,
    (request) => request.authInfo?.clientId ?? null,
    (error) => jsonRpcErrorObject(boundary.protocolError(error, 'tool', '')),
    log
  );
  const tasks = new AppTasks(intake, rounds.run);
  return { tasks, store, rounds, log };
}

/** A task as the task-escalation step makes one: admitted, created, the reservation released. */
export interface Started {
  readonly handle: TaskHandle;
  readonly taskId: string;
  /** The reasons its run was aborted with (tasks/cancel, expiry, shutdown). */
  readonly aborts: unknown[];
  /** Resolves when its run is first aborted. */
  readonly aborted: Promise<void>;
}

export async function startTask(
  tasks: AppTasks,
  caller: CallRequest = ALICE,
  support: ToolTaskSupport = { support: 'optional' },
  statusMessage?: string
): Promise<Started> {
  const admission = await tasks.admissions.admit(caller);
  const aborts: unknown[] = [];
  let aborted!: () => void;
  const abortedOnce = new Promise<void>((resolve) => (aborted = resolve));
  try {
    const handle = await admission.create('refund', support, statusMessage, (reason) => {
      aborts.push(reason);
      aborted();
    });
    return { handle, taskId: handle.taskId, aborts, aborted: abortedOnce };
  } finally {
    admission.release();
  }
}

/** A round's result that asks for input (what the ask step seals), with the handler's own keys. */
export function inputRequired(keys: readonly string[], requestState: string): Record<string, unknown> {
  return {
    resultType: 'input_required',
    inputRequests: Object.fromEntries(
      keys.map((key) => [
        key,
        {
          method: 'elicitation/create',
          params: { mode: 'form', message: `Answer ${key}`, requestedSchema: { type: 'object', properties: {} } }
        }
      ])
    ),
    requestState
  };
}

export const ok = (text: string) => ({ content: [{ type: 'text', text }] });

/** The stores the lifecycle is checked with: in memory, and SQLite on a temporary file (one database per test). */
export const STORES: readonly (readonly [string, () => TaskStore])[] = [
  ['InMemoryTaskStore', () => new InMemoryTaskStore()],
  ['SqliteTaskStore', () => new SqliteTaskStore(openSqlite())]
];

let directory: string | undefined;
const databases: Database.Database[] = [];

/** A SQLite database on a file of this run's temporary directory, a new one unless named again (closed and removed by `closeSqlite`). */
export function openSqlite(file = `tasks-${databases.length}.db`): Database.Database {
  directory ??= mkdtempSync(join(tmpdir(), 'mcpfusion-tasks-'));
  const db = new Database(join(directory, file), { timeout: 0 });
  databases.push(db);
  return db;
}

export function closeSqlite(): void {
  for (const db of databases.splice(0)) db.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
  directory = undefined;
}
