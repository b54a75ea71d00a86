import type { TaskRuns } from './task-runs';

const SWEEP_INTERVAL_MS = 1_000;

/**
 * Removes expired tasks from the store, at most once a second (a sweep is store I/O: a scan in
 * Redis); a run of one that expired is aborted. Expired records are refused on read anyway.
 */
export class TaskSweeper {
  private nextSweepAt = 0;

  constructor(private readonly runs: TaskRuns) {}

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
  }
}
