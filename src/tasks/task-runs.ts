import type { TaskStore } from './task-store';
import type { TaskWatchers } from './task-watchers';

/** What the roles of the tasks module share: the store, the runs of this process, their progress, their watchers. */
export class TaskRuns {
  /** How to end the run of each task running in this process (tasks/cancel, expiry, shutdown). */
  readonly running = new Map<string, (reason: unknown) => void>();
  /** The latest progress of tasks running here: shown by tasks/get, not written to the store on every report. */
  readonly progressOf = new Map<string, { message: string; at: number }>();
  closed = false;

  constructor(
    readonly store: TaskStore,
    readonly watchers: TaskWatchers,
    /** Resolves once tasks a previous process left running are settled (every role waits for it). */
    readonly ready: Promise<void>
  ) {}

  /** The status message of a working task (its latest progress), kept in memory until the round ends. */
  touch(taskId: string, message: string): void {
    this.progressOf.set(taskId, { message, at: Date.now() });
    this.watchers.changed(taskId);
  }

  /** The run of a task ends here (its round settled, or it was aborted). */
  ended(taskId: string, abort: (reason: unknown) => void): void {
    if (this.running.get(taskId) === abort) this.running.delete(taskId);
    this.progressOf.delete(taskId);
  }
}
