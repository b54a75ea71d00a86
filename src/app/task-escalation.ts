import { setImmediate as nextTurn } from 'node:timers';
import type { ExtensionCall, ExtensionCallLife } from '../extensions/call-life';
import type { ExtensionRequest } from '../extensions/extension-request';
import { MissingCapabilityError } from '../errors';
import { acceptsTasks } from '../tasks/task-acceptance';
import { TASKS_EXTENSION } from '../tasks/task-record';
import type { TaskAdmissions } from '../tasks/task-admission';
import type { TaskAdmission, TaskHandle, ToolTaskSupport } from '../types/tasks';

/**
 * The moment a call becomes a task: the tasks extension's call-life point, on the public
 * extension API. It applies to the tools that declare `task`. A request that does not accept a
 * task (2025-era, or no opt-in to the extension) runs as a request; a later round of a task
 * (`call.answered`) runs as it is; a tool that declares `task: 'required'` refuses such a request
 * before the call takes anything (its `checkFor`: -32021, naming the tool). One that does accept
 * it is admitted (the live-task limits) and then:
 *
 * - `create: 'when-waiting'` (default): the handler runs; if it settles within the turn it
 *   started in and reports no progress (a quick result, or a question asked before any work:
 *   the spec's "resolve MRTR exchanges synchronously first"), that is the answer. Otherwise the
 *   call becomes a task at that moment.
 * - `create: 'at-once'`: the call becomes a task before the handler runs.
 *
 * Becoming a task: the call stops following its request (the request ending does not stop it;
 * `tasks/cancel` aborts it), the record is stored, the request is answered with the
 * `CreateTaskResult` while the call runs on (its slot and lock stay with the handler), and the
 * call's outcome, as the error boundary maps it, settles the task. Progress becomes the task's
 * status message; log messages have no stream to go to.
 */
export function taskEscalation(admissions: TaskAdmissions): ExtensionCallLife {
  return {
    appliesTo: (tool) => tool.task !== undefined,
    checkFor: (tool) => (tool.task?.support === 'required' ? requiresTask(tool.name) : undefined),
    around: async (call, next) => {
      const support = call.tool.task;
      if (!support || call.answered || !acceptsTasks(call.request)) return next();
      call.closeLog();
      const admission = await admissions.admit({ ...call.request, subject: call.tool.name, arguments: call.arguments });
      const escalation = new Escalation(call, admission, support);
      try {
        if (support.create === 'at-once') {
          // Stored before the handler runs (before it can open a transaction of its own, say).
          await escalation.become();
          // Not awaited: the reservation ends once the task is stored (it counts as a live task from then on).
          return next();
        }
        return await whenWaiting(call, next, escalation);
      } finally {
        admission.release();
      }
    }
  };
}

/** The check of a tool that only runs as a task: a request that does not accept one is refused (-32021). */
function requiresTask(name: string): (request: ExtensionRequest) => void {
  return (request) => {
    if (!acceptsTasks(request)) throw new MissingCapabilityError(name, { extensions: { [TASKS_EXTENSION]: {} } });
  };
}

/**
 * Where a call that may become a task stands: its progress comes here (the task's status
 * message once it is one; before that, a report makes it one).
 */
class Escalation {
  lastMessage: string | undefined;
  readonly escalated: Promise<undefined>;
  private escalate!: () => void;
  private task: TaskHandle | undefined;

  constructor(
    private readonly call: ExtensionCall,
    private readonly admission: TaskAdmission,
    private readonly support: ToolTaskSupport
  ) {
    this.escalated = new Promise<undefined>((resolve) => (this.escalate = () => resolve(undefined)));
    call.reportProgressTo((percent, message) => {
      this.lastMessage = message ?? `${Math.round(percent)}%`;
      if (this.task) this.task.report(this.lastMessage);
      else this.escalate();
    });
  }

  /** The call becomes a task: no longer following its request, stored, answered with its `CreateTaskResult`. */
  async become(): Promise<void> {
    const { call } = this;
    call.detach();
    const task = await this.admission.create(call.tool.name, this.support, this.lastMessage, (reason) => call.abort(reason));
    this.task = task;
    call.answerNow(task.created, { id: task.taskId, settled: (outcome) => task.settle(outcome) });
  }
}

/** Runs the handler; the call becomes a task once it outlives its first turn or reports progress. */
async function whenWaiting(call: ExtensionCall, next: () => Promise<unknown>, escalation: Escalation): Promise<unknown> {
  const outcome = next();
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
    await escalation.become();
  } catch (error) {
    // Not stored: the call is not a task, and its run ends here.
    call.abort(error);
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
