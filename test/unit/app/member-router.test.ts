import { IsString, Matches } from 'class-validator';
import { ProtocolError } from '@modelcontextprotocol/server';
import { Action, Input, Prompt, Resource, ResourceTemplate, ToolProvider, type FusionAppOptions } from '../../../src';
import { assembleApp, type AppParts } from '../../../src/app/assemble';
import type { MemberRouter } from '../../../src/app/member-router';
import type { CompletionQuery } from '../../../src/transports/served-app';
import type { ExtensionRequest, LaterRound } from '../../../src/advanced';
import type { CallRequest, ServedRequest } from '../../../src/types/request';
import type { TaskHandle } from '../../../src/types/tasks';

/**
 * The member router (src/app/member-router.ts), with the parts of a real app (`assembleApp`, as
 * `FusionApp.create` wires them): what names nothing of the app is a JSON-RPC error (never an
 * `isError` result), the tasks extension is advertised only by an app that has tasks, and a
 * task's later round whose tool was removed fails the task.
 */

class ItemVars {
  @Matches(/^\d+$/, { message: 'id must be digits' }) id!: string;
}

class GreetingArgs {
  @IsString() name!: string;
  @IsString() mood!: string;
}

@ToolProvider()
class Desk {
  @Action('echo', { description: 'Answers at once' })
  echo() {
    return 'echo';
  }

  @Prompt('greeting', { description: 'Greets someone', complete: { name: 'completeName' } })
  greeting(@Input() args: GreetingArgs) {
    return `Greet ${args.name}, ${args.mood}.`;
  }

  completeName(value: string) {
    return ['ada', 'alan', 'grace'].filter((name) => name.startsWith(value));
  }

  @Resource('demo://readme', { name: 'readme', mimeType: 'text/plain' })
  readme() {
    return 'Read me.';
  }

  @ResourceTemplate('demo://items/{id}', { name: 'item', complete: { id: () => ['1', '2', '10'] } })
  item(@Input() vars: ItemVars) {
    return vars.id === '404' ? undefined : { id: vars.id };
  }
}

@ToolProvider()
class Jobs {
  @Action('job.quick', { description: 'A task-capable tool that answers at once', task: 'optional' })
  quick() {
    return 'quick job done';
  }
}

const TASKS = 'io.modelcontextprotocol/tasks';
const started: AppParts[] = [];

function partsOf(options: Partial<FusionAppOptions<object>> & Pick<FusionAppOptions<object>, 'tools'>): AppParts {
  const parts = assembleApp({ stateKey: 'k'.repeat(32), logger: () => undefined, ...options }, {}, () => undefined);
  started.push(parts);
  return parts;
}

afterEach(() => {
  for (const parts of started.splice(0)) {
    parts.tasks?.close();
    parts.engine.close();
  }
});

/** A request as a transport hands it (no token: the caller is anonymous). */
const request = (subject: string, extra: Partial<CallRequest> = {}): CallRequest => ({ subject, era: 'modern', ...extra });
const withTasks: Partial<CallRequest> = { clientCapabilities: { extensions: { [TASKS]: {} } } };

/** A completion request as the transport builds it: what it completes, the value typed so far. */
const completing = (query: CompletionQuery): CallRequest =>
  request(query.ref.name ?? query.ref.uri ?? '', { input: query.argument.value, arguments: {} });
const complete = (dispatcher: MemberRouter, query: CompletionQuery) => dispatcher.complete(query, completing(query));

/** What a promise rejected with (fails when it resolved). */
async function refusal(promise: Promise<unknown>): Promise<ProtocolError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error })
  );
  if (!('error' in outcome)) throw new Error(`expected a JSON-RPC error, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(ProtocolError);
  return outcome.error as ProtocolError;
}

const wire = (error: ProtocolError) => ({
  code: error.code,
  message: error.message,
  ...(error.data !== undefined ? { data: error.data } : {})
});

describe('the member router: a request that names nothing of the app is a JSON-RPC error', () => {
  it('an unknown tool: -32602 (a rejection, not an isError result)', async () => {
    const { router: dispatcher } = partsOf({ tools: [Desk] });
    expect(wire(await refusal(dispatcher.callTool(request('nope'))))).toEqual({ code: -32602, message: 'Unknown tool: nope' });
    await expect(dispatcher.callTool(request('echo'))).resolves.toEqual({ content: [{ type: 'text', text: 'echo' }] });
  });

  it('an unknown prompt: -32602', async () => {
    const { router: dispatcher } = partsOf({ tools: [Desk] });
    expect(wire(await refusal(dispatcher.getPrompt(request('nope', { arguments: {} }))))).toEqual({
      code: -32602,
      message: 'Unknown prompt: nope'
    });
  });

  it('invalid prompt arguments: -32602 naming the prompt and the violations', async () => {
    const { router: dispatcher } = partsOf({ tools: [Desk] });
    const error = await refusal(dispatcher.getPrompt(request('greeting', { arguments: { name: 'ada' } })));
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/^Invalid arguments for prompt greeting: mood: /);
  });

  it('an unknown resource: -32602 with data.uri, whether no member matches or the template found nothing', async () => {
    const { router: dispatcher } = partsOf({ tools: [Desk] });
    expect(wire(await refusal(dispatcher.readResource(request('demo://nothing'))))).toEqual({
      code: -32602,
      message: 'Resource not found: demo://nothing',
      data: { uri: 'demo://nothing' }
    });
    expect(wire(await refusal(dispatcher.readResource(request('demo://items/404'))))).toEqual({
      code: -32602,
      message: 'Resource not found: demo://items/404',
      data: { uri: 'demo://items/404' }
    });
    const invalid = await refusal(dispatcher.readResource(request('demo://items/abc')));
    expect(wire(invalid)).toEqual({ code: -32602, message: 'Invalid URI demo://items/abc: id: id must be digits' });
  });

  it('a completion whose reference names no prompt or template of the app: -32602; a known one without a completer: no values', async () => {
    const { router: dispatcher } = partsOf({ tools: [Desk] });
    const argument = { name: 'name', value: 'a' };
    for (const ref of [
      { type: 'ref/prompt', name: 'nope' },
      { type: 'ref/resource', uri: 'demo://nope/{x}' },
      { type: 'ref/resource', uri: 'demo://readme' }, // a fixed resource has nothing to complete
      { type: 'ref/other', name: 'greeting' }
    ]) {
      expect(wire(await refusal(dispatcher.complete({ ref, argument }, completing({ ref, argument }))))).toEqual({
        code: -32602,
        message: `Nothing to complete for ${JSON.stringify(ref)}`
      });
    }
    await expect(complete(dispatcher, { ref: { type: 'ref/prompt', name: 'greeting' }, argument })).resolves.toEqual({
      completion: { values: ['ada', 'alan'], total: 2, hasMore: false }
    });
    await expect(
      complete(dispatcher, { ref: { type: 'ref/prompt', name: 'greeting' }, argument: { name: 'mood', value: '' } })
    ).resolves.toEqual({ completion: { values: [], total: 0, hasMore: false } });
    await expect(
      complete(dispatcher, { ref: { type: 'ref/resource', uri: 'demo://items/{id}' }, argument: { name: 'id', value: '1' } })
    ).resolves.toEqual({ completion: { values: ['1', '2', '10'], total: 3, hasMore: false } }); // the completer's own list, as it gave it
  });
});

/** The tasks extension's methods, as the transports call them (through the router's extension dispatch). */
function tasksEndpointsOf(router: MemberRouter) {
  const call = (method: string) => (params: Record<string, unknown>, served: ServedRequest) => router.callExtension(method, params, served);
  return { get: call('tasks/get'), update: call('tasks/update'), cancel: call('tasks/cancel') };
}

describe('the member router: the tasks extension', () => {
  it('is advertised (capabilities.extensions) and served only by an app that has tasks', () => {
    const plain = partsOf({ tools: [Desk] });
    expect(plain.router.extensions).toBeUndefined();
    expect(plain.router.extensionMethods).toEqual([]);
    expect(plain.tasks).toBeUndefined();

    const withTaskTool = partsOf({ tools: [Desk, Jobs] });
    expect(withTaskTool.router.extensions).toEqual({ [TASKS]: {} });
    expect(withTaskTool.router.extensionMethods).toEqual(['tasks/get', 'tasks/update', 'tasks/cancel']);

    // `tasks` settings alone make an app that has tasks (tools added later may declare `task`).
    const withSettings = partsOf({ tools: [Desk], tasks: { maxLiveTasks: 5 } });
    expect(withSettings.router.extensions).toEqual({ [TASKS]: {} });
  });

  it('tasks/* endpoints: -32021 without the extension, -32602 for a malformed or unknown task id', async () => {
    const { router: dispatcher } = partsOf({ tools: [Jobs] });
    const endpoints = tasksEndpointsOf(dispatcher);
    const missing = await refusal(endpoints.get({ taskId: 'x' }, request('x')));
    expect(missing.code).toBe(-32021);
    expect(missing.data).toEqual({ requiredCapabilities: { extensions: { [TASKS]: {} } } });
    expect(wire(await refusal(endpoints.get({ taskId: '' }, request('', withTasks))))).toEqual({
      code: -32602,
      message: 'Invalid params: taskId must be a non-empty string'
    });
    expect(wire(await refusal(endpoints.cancel({ taskId: 'no-such-task' }, request('no-such-task', withTasks))))).toEqual({
      code: -32602,
      message: 'Failed to retrieve task: Task not found'
    });
    expect(
      wire(await refusal(endpoints.update({ taskId: 'no-such-task', inputResponses: 'yes' }, request('no-such-task', withTasks))))
    ).toEqual({
      code: -32602,
      message: 'Invalid params for tasks/update: inputResponses must be an object of answers by request key'
    });
  });
});

/** A later round of a task, as the tasks extension asks its host for one (no answers; nothing aborts it). */
function roundOf(tool: string, task: TaskHandle, resumedBy: unknown): LaterRound {
  return {
    tool,
    arguments: {},
    clientCapabilities: {},
    inputResponses: {},
    signal: new AbortController().signal,
    run: { id: task.taskId, settled: (outcome) => task.settle(outcome) },
    // A request this app handed no extension (as `app.callTool`'s): read by its own facts.
    resumedBy: resumedBy as ExtensionRequest
  };
}

describe('the member router: a task round', () => {
  /** A task of `job.quick`, waiting for input (as if its first round had asked), made through the app's own tasks. */
  async function waitingTask(parts: AppParts) {
    const tasks = parts.tasks!;
    const admission = await tasks.admissions.admit(request('job.quick', withTasks));
    const handle = await admission
      .create('job.quick', { support: 'optional' }, undefined, () => undefined)
      .finally(() => admission.release());
    await handle.settle({
      value: { resultType: 'input_required', inputRequests: { approval: { method: 'elicitation/create', params: {} } }, requestState: 's' }
    });
    return handle;
  }

  /** Waits, change by change, until the task has the status (no polling loop on time). */
  async function statusOf(parts: AppParts, taskId: string, wanted: string) {
    for (let changes = 0; changes < 20; changes++) {
      const record = await parts.tasks!.record(taskId);
      if (record?.status === wanted) return record;
      await parts.tasks!.watchers.nextChange(taskId);
    }
    throw new Error(`task ${taskId} never became ${wanted}`);
  }

  it('runLaterRound runs the tool in task mode; its result completes the task', async () => {
    const parts = partsOf({ tools: [Jobs] });
    const handle = await waitingTask(parts);
    const round = parts.tasks!.admissions.handle(handle.taskId, {}, () => undefined);
    await parts.tasks!.store.transition(handle.taskId, ['input_required'], { status: 'working' });
    parts.runLaterRound(roundOf('job.quick', round, request('job.quick', withTasks)));
    const record = await statusOf(parts, handle.taskId, 'completed');
    expect(record.result).toEqual({ content: [{ type: 'text', text: 'quick job done' }], resultType: 'complete' });
  });

  it('runLaterRound for a tool removed at run time fails the task with -32602 naming it', async () => {
    const parts = partsOf({ tools: [Jobs] });
    const handle = await waitingTask(parts);
    await parts.tasks!.store.transition(handle.taskId, ['input_required'], { status: 'working' });
    parts.toolClasses.replace([]);
    const round = parts.tasks!.admissions.handle(handle.taskId, {}, () => undefined);
    parts.runLaterRound(roundOf('job.quick', round, request('job.quick', withTasks)));
    const record = await statusOf(parts, handle.taskId, 'failed');
    expect(record.error).toEqual({ code: -32602, message: 'Unknown tool: job.quick' });
  });

  it('the whole path: answers sent with tasks/update after the tool was removed fail the task', async () => {
    const parts = partsOf({ tools: [Jobs] });
    const handle = await waitingTask(parts);
    parts.toolClasses.replace([]);
    await tasksEndpointsOf(parts.router).update(
      { taskId: handle.taskId, inputResponses: { 'approval#1': { action: 'accept', content: {} } } },
      request(handle.taskId, withTasks)
    );
    await statusOf(parts, handle.taskId, 'failed');
    const failed = await tasksEndpointsOf(parts.router).get({ taskId: handle.taskId }, request(handle.taskId, withTasks));
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32602, message: 'Unknown tool: job.quick' } });
  });
});

@ToolProvider({ scopes: ['desk:read'] })
class ScopedDesk {
  @Action('scoped.refund', { description: 'Needs its own scope', scopes: ['desk:write'] })
  refund() {
    return 'refunded';
  }

  @Prompt('scoped.greeting', { description: 'Greets', complete: { name: 'completeName' } })
  greeting(@Input() args: GreetingArgs) {
    return `Greet ${args.name}.`;
  }

  completeName() {
    return ['ada'];
  }

  @ResourceTemplate('scoped://items/{id}', { name: 'scoped-item', scopes: ['items:read'] })
  item(@Input() vars: ItemVars) {
    return { id: vars.id };
  }
}

describe('the member router: the scopes of what a request names (what the HTTP auth gate reads)', () => {
  it('a tool, a prompt, a resource by the URI read, a completion by the prompt or template it completes', () => {
    const { router } = partsOf({ tools: [ScopedDesk] });
    expect(router.scopesOf({ kind: 'tool', name: 'scoped.refund' })).toEqual(['desk:write']);
    expect(router.scopesOf({ kind: 'prompt', name: 'scoped.greeting' })).toEqual(['desk:read']);
    expect(router.scopesOf({ kind: 'resource', uri: 'scoped://items/7' })).toEqual(['items:read']);
    expect(router.scopesOf({ kind: 'completion', of: 'prompt', name: 'scoped.greeting' })).toEqual(['desk:read']);
    expect(router.scopesOf({ kind: 'completion', of: 'resource', name: 'scoped://items/{id}' })).toEqual(['items:read']);
  });

  it('nothing for a name the app does not have (the handler answers it)', () => {
    const { router } = partsOf({ tools: [ScopedDesk] });
    expect(router.scopesOf({ kind: 'tool', name: 'nope' })).toBeUndefined();
    expect(router.scopesOf({ kind: 'resource', uri: 'nothing://here' })).toBeUndefined();
    expect(router.scopesOf({ kind: 'completion', of: 'resource', name: 'scoped://items/7' })).toBeUndefined();
  });
});
