import { isInputRequiredResult, type InputRequiredResult } from '@modelcontextprotocol/server';
import type { TaskOutcome } from '../types/tasks';
import type { TaskRuns } from './task-runs';

/** The transition to `cancelled` (a cancel request, or a round that ends cancelled, is settled with it). */
export const CANCELLED = (now: number) => ({
  status: 'cancelled' as const,
  statusMessage: 'Cancelled by the client',
  cancelRequested: undefined,
  lastUpdatedAt: now
});

/**
 * The end of a task's round, recorded as the task's next status: `completed`, `failed`,
 * `cancelled`, or `input_required` with the sealed continuation kept under task-unique keys.
 * Apart from the lifecycle because a task's handle settles through it, and the handles are
 * made (by the admissions) before the lifecycle that resumes rounds can exist.
 */
export class TaskSettlement {
  constructor(
    private readonly runs: TaskRuns,
    /** How long a task waits for input before it fails and frees its place. */
    private readonly inputTimeoutMs: number,
    private readonly log: (message: string) => void
  ) {}

  /** The end of a round: the task's next status (a cancelled task stays cancelled: the transition needs `working`). */
  async settle(taskId: string, outcome: TaskOutcome, abort: (reason: unknown) => void): Promise<void> {
    this.runs.ended(taskId, abort);
    const now = Date.now();
    try {
      if ('cancelled' in outcome) {
        await this.runs.store.transition(taskId, ['working'], CANCELLED(now));
      } else if ('error' in outcome) {
        const { error } = outcome;
        await this.runs.store.transition(taskId, ['working'], {
          status: 'failed',
          statusMessage: error.message,
          error,
          lastUpdatedAt: now
        });
      } else if (isInputRequiredResult(outcome.value)) {
        const asked = outcome.value as InputRequiredResult;
        await this.runs.store.transition(taskId, ['working'], (current) => {
          // Asked to stop and nothing done yet: cancelled rather than waiting for answers.
          if (current.cancelRequested) return CANCELLED(now);
          const round = current.rounds + 1;
          const inputRequests: Record<string, unknown> = {};
          const inputKeys: Record<string, string> = {};
          for (const [key, embedded] of Object.entries(asked.inputRequests ?? {})) {
            // Unique over the task's life (the spec): a request asked again in a later round gets a new key.
            const taskKey = `${key}#${round}`;
            inputRequests[taskKey] = embedded;
            inputKeys[taskKey] = key;
          }
          return {
            status: 'input_required',
            statusMessage: 'Waiting for input',
            inputRequests,
            inputKeys,
            inputResponses: {},
            requestState: asked.requestState,
            inputDeadline: now + this.inputTimeoutMs,
            rounds: round,
            lastUpdatedAt: now
          };
        });
      } else {
        const result = outcome.value;
        await this.runs.store.transition(taskId, ['working'], {
          status: 'completed',
          statusMessage: result.isError === true ? 'Completed with a tool error' : 'Completed',
          result,
          lastUpdatedAt: now
        });
      }
    } catch (error) {
      this.log(`tasks: could not record the outcome of task ${taskId}: ${String(error)}`);
    }
    this.runs.recorded(taskId);
    this.runs.watchers.changed(taskId);
  }
}
