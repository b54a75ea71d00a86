import type { FrameworkExtensionRequest, FusionExtension } from '../extensions/extension';
import { TASKS_EXTENSION } from '../tasks/task-record';
import type { TaskEndpoints } from '../transports/served-app';
import { taskIdsOf } from '../transports/http/task-listen-request';

/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) on the extension API: it
 * advertises `{}`, serves `tasks/get`, `tasks/update` and `tasks/cancel` through the app's task
 * endpoints, which read the client's opt-in per request themselves (a task needs a 2026-07-28
 * request that declares the extension: -32021 otherwise), and answers listens naming task ids
 * (`listens`) with their status. What stays outside the API (docs/composition.md says why): the
 * task-escalation step of a task-capable tool's chain (it answers the request early, makes the
 * call the task's run and moves its progress: the call's own life, which extension `steps`,
 * plain middleware, cannot touch).
 */
export function tasksExtension(endpoints: TaskEndpoints): FusionExtension {
  const served = (request: unknown) => (request as FrameworkExtensionRequest).served;
  return {
    id: TASKS_EXTENSION,
    settings: {},
    methods: {
      'tasks/get': (request) => endpoints.get(request.params, served(request)),
      'tasks/update': (request) => endpoints.update(request.params, served(request)),
      'tasks/cancel': (request) => endpoints.cancel(request.params, served(request))
    },
    // A listen naming task ids: the status of each task, on the listen's stream.
    listens: {
      accepts: (params) => taskIdsOf(params) !== undefined,
      open: (request) => endpoints.listen({ id: request.id, taskIds: taskIdsOf(request.params) ?? [] }, served(request), request.signal)
    }
  };
}
