import type { FusionExtension } from '../extensions/extension';
import type { AppTasks } from '../tasks/app-tasks';
import { TASKS_EXTENSION } from '../tasks/task-record';
import { taskIdsOf } from '../transports/http/task-listen-request';
import type { ErrorBoundary } from '../pipeline/error-boundary';
import { taskEndpoints } from './task-endpoints';
import { taskEscalation } from './task-escalation';

/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663), a plain extension on the
 * public API: it advertises `{}`; serves `tasks/get`, `tasks/update` and `tasks/cancel` (each
 * request must accept tasks: a 2026-07-28 request that declares the extension, -32021
 * otherwise); answers listens naming task ids (`listens`) with their status; and makes calls of
 * the tools that declare `task` into tasks with its call-life point (`task-escalation.ts`).
 */
export function tasksExtension(tasks: AppTasks, boundary: ErrorBoundary): FusionExtension {
  const endpoints = taskEndpoints(tasks, boundary);
  return {
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
    callLife: taskEscalation(tasks.admissions)
  };
}
