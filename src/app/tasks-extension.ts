import { ConfigurationError } from '../errors';
import type { DetachedRun } from '../extensions/call-life';
import type { ExtensionHost, ExtensionRequest, FusionExtension } from '../extensions/extension';
import { AppTasks, type TaskIntake } from '../tasks/app-tasks';
import type { RunRound } from '../tasks/task-lifecycle';
import { TASKS_EXTENSION } from '../tasks/task-record';
import { taskIdsOf } from '../transports/http/task-listen-request';
import type { ErrorBoundary } from '../pipeline/error-boundary';
import { taskEndpoints } from './task-endpoints';
import { taskEscalation } from './task-escalation';

/** The tasks extension and the app's tasks it serves (the app keeps them: `app.callTool`'s tasks, shutdown). */
export interface TasksExtension {
  readonly extension: FusionExtension;
  readonly tasks: AppTasks;
}

/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663), a plain extension on the
 * public API: it advertises `{}`; serves `tasks/get`, `tasks/update` and `tasks/cancel` (each
 * request must accept tasks: a 2026-07-28 request that declares the extension, -32021
 * otherwise); answers listens naming task ids (`listens`) with their status; makes calls of
 * the tools that declare `task` into tasks with its call-life point (`task-escalation.ts`); and
 * runs a task's later rounds (once `tasks/update` answered its question) with the host's
 * `runLaterRound`, given to its `start`.
 */
export function tasksExtension(intake: TaskIntake, boundary: ErrorBoundary): TasksExtension {
  let host: ExtensionHost | undefined;
  const runRound: RunRound = (round, resumedBy) => {
    const run: DetachedRun = { id: round.task.taskId, settled: (outcome) => round.task.settle(outcome) };
    if (!host) {
      // Not reached: a task exists only once a call reached the call-life point, which waits for the start.
      const error = new ConfigurationError(`${TASKS_EXTENSION}: a task's round ran before the extension started`);
      void round.task.settle({ error: intake.errorObjectOf(error) }).catch(() => undefined);
      return;
    }
    host.runLaterRound({
      tool: round.toolName,
      arguments: round.arguments,
      requestState: round.requestState,
      inputResponses: round.inputResponses,
      clientCapabilities: round.clientCapabilities,
      run,
      signal: round.signal,
      // The endpoints give the lifecycle the extension's request; `app.callTool` its own, which the host reads by its facts.
      resumedBy: resumedBy as ExtensionRequest
    });
  };
  const tasks = new AppTasks(intake, runRound);
  const endpoints = taskEndpoints(tasks, boundary);
  const extension: FusionExtension = {
    id: TASKS_EXTENSION,
    settings: {},
    methods: {
      'tasks/get': (request) => endpoints.get(request),
      'tasks/update': (request) => endpoints.update(request),
      'tasks/cancel': (request) => endpoints.cancel(request)
    },
    // A listen naming task ids: the status of each task, on the listen's stream.
    listens: {
      accepts: (params) => taskIdsOf(params) !== undefined,
      open: (request) => endpoints.listen(request, taskIdsOf(request.params) ?? [])
    },
    callLife: taskEscalation(tasks.admissions),
    start: (given) => {
      host = given;
    }
  };
  return { extension, tasks };
}
