import { setImmediate as nextTurn } from 'node:timers';
import { CancelledError } from '../../errors';
import { acceptsTasks } from '../../tasks/task-acceptance';
import type { TaskAdmission, TaskEscalation, ToolTaskSupport } from '../../types/tasks';
import type { CallState } from '../call-state';
import type { StepNext } from '../compose';
import { ProgressChannel } from '../progress';
import { named, type NamedStep } from './named-step';

/**
 * The moment a call becomes a task (the tasks extension), for a tool that declares `task`: the
 * step wraps the handler alone (and its generator driver). A request that does not accept a
 * task runs as a request. One that does is admitted (the live-task limit) and then:
 *
 * - `create: 'when-waiting'` (default): the handler runs; if it settles within the turn it
 *   started in and reports no progress (a quick result, or a question asked before any work:
 *   the spec's "resolve MRTR exchanges synchronously first"), that is the answer. Otherwise the
 *   call becomes a task at that moment.
 * - `create: 'at-once'`: the call becomes a task before the handler runs.
 *
 * Becoming a task: the record is stored, the call's mode is `'task'`, it stops following the
 * request's signal (the request ending does not stop it; `tasks/cancel` does), the request is
 * answered with the `CreateTaskResult`, and the chain goes on (the slot and the lock stay with
 * the handler); the engine settles the task with the chain's outcome, as the error boundary maps
 * it (`CallState.becomeTask` tells it). Progress becomes the task's status message; log messages have no stream to go to.
 */
export function taskEscalationStep(tasks: TaskEscalation, support: ToolTaskSupport): NamedStep {
  return named('task-escalation', async (state, next) => {
    if (state.mode === 'task' || !acceptsTasks(state.request)) return next(state); // a later round of a task; or no task possible
    const toolName = state.member.info.name;
    state.log.close();
    const admission = await tasks.admit(state.request);
    const escalation = new Escalation(state);
    try {
      if (support.create === 'at-once') {
        // Stored before the handler runs (before it can open a transaction of its own, say).
        await escalation.become(admission, toolName, support);
        return next(state);
      }
      return await whenWaiting(state, next, escalation, admission, toolName, support);
    } finally {
      admission.release();
    }
  });
}

/**
 * Where a call that may become a task stands: its progress goes here (the task's status
 * message once it is one; before that, a report makes it one).
 */
class Escalation {
  lastMessage: string | undefined;
  readonly escalated: Promise<undefined>;
  private escalate!: () => void;

  constructor(private readonly state: CallState) {
    this.escalated = new Promise<undefined>((resolve) => (this.escalate = () => resolve(undefined)));
    state.routeProgress(
      new ProgressChannel(async (percent, message) => {
        state.trace?.progress(percent, message);
        this.lastMessage = message ?? `${Math.round(percent)}%`;
        if (state.task) state.task.report(this.lastMessage);
        else this.escalate();
      })
    );
  }

  /** The call becomes a task: stored, no longer following its request, answered with its `CreateTaskResult`. */
  async become(admission: TaskAdmission, toolName: string, support: ToolTaskSupport): Promise<void> {
    const { state } = this;
    state.aborter.detach();
    const task = await admission.create(toolName, support, this.lastMessage, (reason) => state.aborter.abort(CancelledError.of(reason)));
    state.becomeTask(task);
    state.trace?.becameTask(task.taskId, toolName);
    state.answer?.(task.created);
  }
}

/** Runs the chain; the call becomes a task once it outlives its first turn or reports progress. */
async function whenWaiting(
  state: CallState,
  next: StepNext,
  escalation: Escalation,
  admission: TaskAdmission,
  toolName: string,
  support: ToolTaskSupport
): Promise<unknown> {
  const outcome = next(state);
  const settled = outcome.then(
    (value) => ({ value }),
    (error: unknown) => ({ error })
  );
  const turn = nextTurnOf();
  const first = await Promise.race([settled, escalation.escalated, turn.ended]);
  turn.cancel();
  if (first) {
    if ('error' in first) throw first.error;
    return first.value;
  }
  try {
    await escalation.become(admission, toolName, support);
  } catch (error) {
    // Not stored: the call is not a task, and its run ends here.
    state.aborter.abort(error);
    throw error;
  }
  return outcome;
}

/** Resolves (with undefined) at the next turn of the event loop; cancellable. */
function nextTurnOf(): { ended: Promise<undefined>; cancel(): void } {
  let handle: ReturnType<typeof nextTurn> | undefined;
  const ended = new Promise<undefined>((resolve) => (handle = nextTurn(() => resolve(undefined))));
  return { ended, cancel: () => clearImmediate(handle) };
}
