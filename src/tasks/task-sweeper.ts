import { TaskInterruptedError } from '../errors';
import type { JsonRpcErrorObject } from '../types/tasks';
import type { TaskRuns } from './task-runs';

const SWEEP_INTERVAL_MS = 1_000;

/**
 * Removes expired tasks from the store, at most once a second (a sweep is store I/O: a scan in
 * Redis); a run of one that expired is aborted. Expired records are refused on read anyway.
 * A task that waited for input past its deadline (`tasks.inputTimeoutMs`) fails then, and its
 * place is free.
 */
export class TaskSweeper {
  private nextSweepAt = 0;

  constructor(
    private readonly runs: TaskRuns,
    private readonly errorObjectOf: (error: unknown) => JsonRpcErrorObject
  ) {}

  async sweep(): Promise<void> {
    const now = Date.now();
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + SWEEP_INTERVAL_MS;
    let removed: string[];
    try {
      removed = await this.runs.store.sweep(now);
    } catch {
      return; // a store that is busy now sweeps next time; expired records are refused meanwhile
    }
    for (const taskId of removed) {
      this.runs.progressOf.delete(taskId);
      this.runs.running.get(taskId)?.('the task expired (ttlMs)');
      this.runs.running.delete(taskId);
      this.runs.watchers.changed(taskId);
    }
    await this.endUnanswered(now).catch(() => undefined);
  }

  /** Fails the tasks that waited for input past their deadline (a compare-and-set: an answer that came first wins). */
  private async endUnanswered(now: number): Promise<void> {
    const overdue = (await this.runs.store.listLive()).filter(
      (record) => record.status === 'input_required' && record.inputDeadline !== undefined && record.inputDeadline <= now
    );
    for (const record of overdue) {
      const error = this.errorObjectOf(
        new TaskInterruptedError("Nobody answered the task's questions in the time allowed (tasks.inputTimeoutMs); the task was ended.")
      );
      const ended = await this.runs.store.transition(record.taskId, ['input_required'], {
        status: 'failed',
        statusMessage: error.message,
        error,
        inputRequests: undefined,
        inputDeadline: undefined,
        lastUpdatedAt: now
      });
      if (ended) this.runs.watchers.changed(record.taskId);
    }
  }
}
