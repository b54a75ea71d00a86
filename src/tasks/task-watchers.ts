/**
 * Who follows which task (listen streams, the test harness): told of every change of the task
 * (its status, message, input requests) in this process, until they stop.
 */
export class TaskWatchers {
  private readonly watchers = new Map<string, Set<() => void>>();

  /** Calls `listener` on every change of the task; returns the removal. */
  watch(taskId: string, listener: () => void): () => void {
    const set = this.watchers.get(taskId) ?? new Set();
    this.watchers.set(taskId, set);
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.watchers.delete(taskId);
    };
  }

  /** Resolves at the task's next change (the harness follows a task as a client would, without sleeping). */
  nextChange(taskId: string, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const stop = this.watch(taskId, () => {
        stop();
        signal?.removeEventListener('abort', abort);
        resolve();
      });
      const abort = (): void => {
        stop();
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', abort, { once: true });
    });
  }

  /** Tells the task's watchers that it changed. */
  changed(taskId: string): void {
    for (const listener of [...(this.watchers.get(taskId) ?? [])]) listener();
  }
}
