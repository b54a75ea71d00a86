import type { TaskStore } from './task-store';
import type { TaskWatchers } from './task-watchers';

/** What the roles of the tasks module share: the store, the runs of this process, their progress, their watchers. */
export class TaskRuns {
  /** How to end the run of each task running in this process (tasks/cancel, expiry, shutdown). */
  readonly running = new Map<string, (reason: unknown) => void>();
  /** Resolves when the round of a task running here has recorded its outcome (a local cancel waits for it). */
  private readonly settledOf = new Map<string, { promise: Promise<void>; resolve: () => void }>();
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

  /** A round of the task runs here from now on; `abort` ends it. */
  started(taskId: string, abort: (reason: unknown) => void): void {
    this.running.set(taskId, abort);
    if (!this.settledOf.has(taskId)) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.settledOf.set(taskId, { promise, resolve });
    }
  }

  /** The run of a task ends here (its round settled, or it was aborted). */
  ended(taskId: string, abort: (reason: unknown) => void): void {
    if (this.running.get(taskId) !== abort) return;
    this.running.delete(taskId);
    this.progressOf.delete(taskId);
  }

  /** The round's outcome is recorded: whoever waits for it (a local cancel) goes on. */
  recorded(taskId: string): void {
    if (this.running.has(taskId)) return; // a later round runs already
    this.settledOf.get(taskId)?.resolve();
    this.settledOf.delete(taskId);
  }

  /** Resolves once the round running here has recorded its outcome (at once when none runs here). */
  settled(taskId: string): Promise<void> {
    return this.settledOf.get(taskId)?.promise ?? Promise.resolve();
  }
}
