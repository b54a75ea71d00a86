import { isInputRequiredResult, type CallToolResult } from '@modelcontextprotocol/server';
import type { AppInternals } from '../app/internals';
import { ConfigurationError } from '../errors';
import type { CompiledTool } from '../pipeline/compiled-member';
import type { AppTasks } from '../tasks/app-tasks';
import type { TaskView } from '../tasks/task-lifecycle';
import { TASKS_EXTENSION } from '../tasks/task-record';
import type { DirectCallOptions, HarnessInputAnswer } from '../types/harness';
import type { CallRequest } from '../types/request';
import { ANSWERING, NOT_ANSWERING, answerFromMap, harnessView } from './harness-answers';

/**
 * `app.callTool(name, args, { asTask: true })`: calls a task-capable tool the way a client with
 * the tasks extension would, and follows it to its end: requests for input asked before the
 * task exists are answered and retried (MRTR), a task is followed through its statuses (each
 * one handed to `onTask`), its requests for input are answered with `tasks/update`, and its
 * final result is returned: the tool's result when completed (an `isError` one included), an
 * `isError` result saying so when it failed or was cancelled. Aborting `signal` cancels the task.
 * No polling: the harness waits for the task's next change.
 */
export async function driveTask(
  internals: AppInternals,
  tool: CompiledTool,
  args: Record<string, unknown>,
  options: DirectCallOptions
): Promise<CallToolResult> {
  const { tasks } = internals;
  if (!tasks || !tool.descriptor.task)
    throw new ConfigurationError(`Tool ${tool.info.name} does not run as a task: give it task: 'optional' or 'required'.`);
  const { onInput, answers, signal } = options;
  const answer = async (requests: Record<string, unknown>): Promise<Record<string, HarnessInputAnswer>> => {
    const out: Record<string, HarnessInputAnswer> = {};
    for (const [key, embedded] of Object.entries(requests)) {
      const view = harnessView(key, embedded as { method: string; params?: Record<string, unknown> });
      out[key] = onInput ? await onInput(view) : answerFromMap(view, answers ?? {});
    }
    return out;
  };
  const base: CallRequest = {
    subject: tool.info.name,
    arguments: args,
    signal,
    meta: options.meta,
    authInfo: options.authInfo,
    era: 'modern',
    clientCapabilities: { extensions: { [TASKS_EXTENSION]: {} }, elicitation: { form: {}, url: {} }, sampling: {}, roots: {} } as never,
    inputChannel: onInput || answers ? ANSWERING : NOT_ANSWERING
  };
  let request = base;
  for (;;) {
    const started = (await internals.engine.run(tool, request)) as Record<string, unknown>;
    if (isInputRequiredResult(started)) {
      request = { ...base, requestState: started.requestState, inputResponses: await answer(started.inputRequests ?? {}) };
      continue;
    }
    if (started.resultType !== 'task') return started as CallToolResult;
    return follow(tasks, started.taskId as string, base, answer, options);
  }
}

async function follow(
  tasks: AppTasks,
  taskId: string,
  request: CallRequest,
  answer: (requests: Record<string, unknown>) => Promise<Record<string, HarnessInputAnswer>>,
  options: DirectCallOptions
): Promise<CallToolResult> {
  const { signal } = options;
  const cancel = (): void => void tasks.lifecycle.cancel(taskId, request).catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    let answeredRound: string | undefined;
    for (;;) {
      // Listen before reading, so a change between the read and the wait is not missed.
      const change = tasks.watchers.nextChange(taskId);
      const view: TaskView = await tasks.lifecycle.get(taskId, request);
      options.onTask?.(view);
      if (view.status === 'completed') return view.result as CallToolResult;
      if (view.status === 'failed') {
        const error = view.error as { message?: string } | undefined;
        return { isError: true, content: [{ type: 'text', text: `Task ${taskId} failed: ${error?.message ?? 'unknown error'}` }] };
      }
      if (view.status === 'cancelled') return { isError: true, content: [{ type: 'text', text: `Task ${taskId} was cancelled.` }] };
      if (view.status === 'input_required') {
        const requests = (view.inputRequests ?? {}) as Record<string, unknown>;
        const round = Object.keys(requests).sort().join(',');
        if (round !== answeredRound) {
          answeredRound = round;
          await tasks.lifecycle.update(taskId, await answer(requests), request);
          continue;
        }
      }
      await change;
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}
