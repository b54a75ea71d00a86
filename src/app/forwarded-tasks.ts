import { InvalidParamsError, MissingCapabilityError, TaskNotFoundError, ToolError } from '../errors';
import type { NamePrincipal } from '../auth/principal';
import type { ExtensionCallLife } from '../extensions/call-life';
import type { ExtensionListens, ExtensionMethod, ExtensionRequest, FusionExtension } from '../extensions/extension';
import type { MemberSource } from '../metadata/member-source';
import type { ErrorBoundary } from '../pipeline/error-boundary';
import { acceptsTasks } from '../tasks/task-acceptance';
import { TASKS_EXTENSION } from '../tasks/task-record';
import type { ForwardedTaskMethod, TaskForwarding } from '../types/forwarded-tasks';
import { taskIdsOf } from '../transports/http/task-listen-request';
import { isPlainJsonObject, ownValue } from '../wire/own-properties';
import { forwardedListenResponse } from './forwarded-task-listen';

const METHODS: readonly ForwardedTaskMethod[] = ['tasks/get', 'tasks/update', 'tasks/cancel'];

/**
 * The app's tasks extension once its member sources run tasks of their own (a gateway whose
 * upstream offers `io.modelcontextprotocol/tasks`): one extension, since a method has one owner.
 *
 * - It is advertised when the app's own tasks are (`own`) or a source's server offers tasks.
 * - A call of a source's tool that comes back as a task is adopted by that source (its call-life
 *   point), bound to the caller that made it: the caller's principal (the app's `principalOf`),
 *   else its 2025-era session, else the anonymous caller, as the app's own tasks are bound.
 * - `tasks/get`, `tasks/update` and `tasks/cancel` need the extension declared (-32021), a
 *   `taskId` (-32602); then the source whose task it is, for this caller, forwards the request to
 *   its server; an id no source has for this caller goes to the app's own tasks, or is -32602.
 * - A task status listen naming forwarded tasks of the caller follows them on their servers
 *   (`forwarded-task-listen.ts`); one naming none of them is the app's own tasks' listen.
 *
 * Returns `own` untouched when no source forwards tasks.
 */
export function withForwardedTasks(
  own: FusionExtension | undefined,
  sources: readonly MemberSource[],
  namePrincipal: NamePrincipal,
  boundary: ErrorBoundary
): FusionExtension | undefined {
  const forwarding = sources.flatMap((source) => (source.tasks ? [source.tasks] : []));
  if (forwarding.length === 0 || (!own && !forwarding.some((tasks) => tasks.offered()))) return own;
  const ownerOf = (request: ExtensionRequest): string => {
    const principal = namePrincipal(request);
    if (principal !== undefined) return `principal:${principal}`;
    return request.sessionId !== undefined ? `session:${request.sessionId}` : 'anonymous';
  };
  const methods: Record<string, ExtensionMethod> = { ...own?.methods };
  for (const method of METHODS) methods[method] = forwardTo(method, forwarding, ownerOf, boundary, own?.methods?.[method]);
  return {
    ...own,
    id: TASKS_EXTENSION,
    settings: own?.settings ?? {},
    methods,
    listens: followingListens(forwarding, ownerOf, boundary, own?.listens),
    callLife: bothLives(own?.callLife, adoptingLife(forwarding, ownerOf))
  };
}

/** A `tasks/*` method: forwarded for a source's task, else the app's own method (or -32602). */
function forwardTo(
  method: ForwardedTaskMethod,
  forwarding: readonly TaskForwarding[],
  ownerOf: (request: ExtensionRequest) => string,
  boundary: ErrorBoundary,
  own: ExtensionMethod | undefined
): ExtensionMethod {
  return async (request) => {
    let answer: Promise<Record<string, unknown>> | undefined;
    try {
      if (!acceptsTasks(request)) {
        throw new MissingCapabilityError(
          TASKS_EXTENSION,
          { extensions: { [TASKS_EXTENSION]: {} } },
          `This request needs the ${TASKS_EXTENSION} extension: declare it in the request's client capabilities.`
        );
      }
      const taskId = ownValue(request.params, 'taskId');
      if (typeof taskId !== 'string' || taskId === '') throw new InvalidParamsError('Invalid params: taskId must be a non-empty string');
      const params = method === 'tasks/update' ? updateParams(request) : request.params;
      const owner = ownerOf(request);
      for (const tasks of forwarding) {
        answer = tasks.forward(method, taskId, owner, params, request.signal);
        if (answer) break;
      }
      if (answer) return await answer;
      if (!own) throw new TaskNotFoundError();
    } catch (error) {
      throw boundary.protocolError(error, 'tool', '');
    }
    return own(request);
  };
}

/** Task status listens: forwarded tasks followed on their servers, else the app's own tasks' listen. */
function followingListens(
  forwarding: readonly TaskForwarding[],
  ownerOf: (request: ExtensionRequest) => string,
  boundary: ErrorBoundary,
  own: ExtensionListens | undefined
): ExtensionListens {
  return {
    accepts: (params) => taskIdsOf(params) !== undefined,
    open: async (request) => {
      if (!acceptsTasks(request)) {
        throw boundary.protocolError(
          new MissingCapabilityError(
            TASKS_EXTENSION,
            { extensions: { [TASKS_EXTENSION]: {} } },
            `Listening for task status needs the ${TASKS_EXTENSION} extension: declare it in the request's client capabilities.`
          ),
          'tool',
          ''
        );
      }
      const taskIds = taskIdsOf(request.params) ?? [];
      const forwarded = forwardedListenResponse(request.id, taskIds, ownerOf(request), forwarding, request.signal, !own);
      return forwarded ?? (await own!.open(request));
    }
  };
}

/** `tasks/update`'s params with its answers (the SDK lifts `inputResponses` out of the params, as for MRTR retries). */
function updateParams(request: ExtensionRequest): Readonly<Record<string, unknown>> {
  const answers = request.inputResponses ?? ownValue(request.params, 'inputResponses');
  if (!isPlainJsonObject(answers)) {
    throw new InvalidParamsError('Invalid params for tasks/update: inputResponses must be an object of answers by request key');
  }
  return { ...request.params, inputResponses: answers };
}

/** The call-life point that adopts a source's task: a call of its tool answered `resultType: "task"` gets the front id, bound to its caller. */
function adoptingLife(forwarding: readonly TaskForwarding[], ownerOf: (request: ExtensionRequest) => string): ExtensionCallLife {
  const sourceOf = (name: string) => forwarding.find((tasks) => tasks.serves(name));
  return {
    appliesTo: (tool) => sourceOf(tool.name) !== undefined,
    around: async (call, next) => {
      const value = await next();
      if (!isTaskResult(value)) return value;
      const source = sourceOf(call.tool.name);
      // Not reached (the point applies to the sources' tools only); an upstream's id is never passed on unbound.
      if (!source) throw new TaskNotFoundError();
      const owner = ownerOf(call.request);
      const adopted = source.adopt(call.tool.name, value, owner);
      if (acceptsTasks(call.request)) return adopted;
      // A 2025-era client that declared the extension at `initialize` got a task it has no methods to follow: stopped upstream.
      void source.forward('tasks/cancel', String(adopted.taskId), owner, {}, new AbortController().signal)?.catch(() => undefined);
      throw new ToolError(`${call.tool.name} answered with a task, which this client cannot follow: tasks need a 2026-07-28 client.`);
    }
  };
}

/** The app's own call-life point (tools that declare `task`) and the adopting one, as one: each call goes to the one that applies. */
function bothLives(own: ExtensionCallLife | undefined, adopting: ExtensionCallLife): ExtensionCallLife {
  if (!own) return adopting;
  return {
    appliesTo: (tool) => own.appliesTo(tool) || adopting.appliesTo(tool),
    ...(own.checkFor ? { checkFor: (tool) => own.checkFor?.(tool) } : {}),
    around: (call, next) => (own.appliesTo(call.tool) ? own.around(call, next) : adopting.around(call, next))
  };
}

/** Whether a handler's value is a `CreateTaskResult` (a task the server behind a source created). */
function isTaskResult(value: unknown): value is Readonly<Record<string, unknown>> {
  return isPlainJsonObject(value) && value.resultType === 'task' && typeof value.taskId === 'string';
}
