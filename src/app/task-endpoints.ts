import { InvalidParamsError, MissingCapabilityError } from '../errors';
import type { ExtensionListenRequest, ExtensionRequest } from '../extensions/extension';
import type { ErrorBoundary } from '../pipeline/error-boundary';
import type { AppTasks } from '../tasks/app-tasks';
import { acceptsTasks } from '../tasks/task-acceptance';
import { TASKS_EXTENSION } from '../tasks/task-record';
import { isPlainJsonObject, ownValue } from '../wire/own-properties';

/** The `tasks/*` endpoints of the tasks extension, and its task listens: each takes the extension's request (public facts only). */
export interface TaskEndpoints {
  get(request: ExtensionRequest): Promise<Record<string, unknown>>;
  update(request: ExtensionRequest): Promise<Record<string, unknown>>;
  cancel(request: ExtensionRequest): Promise<Record<string, unknown>>;
  /** A listen stream of the status of `taskIds` (untrusted: each is looked up for this caller). */
  listen(request: ExtensionListenRequest, taskIds: readonly string[]): Promise<Response>;
}

/**
 * The `tasks/*` endpoints (and task listens) of an app: each request must accept tasks
 * (-32021 otherwise, whatever it sent), then its params are checked (-32602 naming the problem),
 * then the tasks module answers. Failures leave through the error boundary.
 */
export function taskEndpoints(tasks: AppTasks, boundary: ErrorBoundary): TaskEndpoints {
  const guard = async <T>(request: ExtensionRequest, work: () => Promise<T>, what = 'This request'): Promise<T> => {
    try {
      if (!acceptsTasks(request)) {
        throw new MissingCapabilityError(
          TASKS_EXTENSION,
          { extensions: { [TASKS_EXTENSION]: {} } },
          `${what} needs the ${TASKS_EXTENSION} extension: declare it in the request's client capabilities.`
        );
      }
      return await work();
    } catch (error) {
      throw boundary.protocolError(error, 'tool', '');
    }
  };
  return {
    get: (request) => guard(request, () => tasks.lifecycle.get(taskIdOf(request.params), request)),
    cancel: (request) => guard(request, () => tasks.lifecycle.cancel(taskIdOf(request.params), request)),
    update: (request) =>
      guard(request, () => {
        // The SDK lifts `inputResponses` out of the params (as for MRTR retries): read from the request.
        const answers = request.inputResponses ?? ownValue(request.params, 'inputResponses');
        if (!isPlainJsonObject(answers)) {
          throw new InvalidParamsError('Invalid params for tasks/update: inputResponses must be an object of answers by request key');
        }
        return tasks.lifecycle.update(taskIdOf(request.params), answers as Record<string, unknown>, request);
      }),
    listen: (request, taskIds) =>
      guard(request, () => tasks.listen(request.id, taskIds, request, request.signal), 'Listening for task status')
  };
}

/** `params.taskId`, a non-empty string (-32602 otherwise). */
function taskIdOf(params: unknown): string {
  const taskId = ownValue(params, 'taskId');
  if (typeof taskId !== 'string' || taskId === '') throw new InvalidParamsError('Invalid params: taskId must be a non-empty string');
  return taskId;
}
