import { isInputRequiredResult, type CallToolResult } from '@modelcontextprotocol/server';
import { ConfigurationError } from '../errors';
import type { CallRequest } from '../pipeline/call-request';
import type { CompiledTool } from '../pipeline/compiled-member';
import type { TaskManager, TaskView } from '../tasks/task-manager';
import { TASKS_EXTENSION } from '../tasks/task-record';
import { noInputChannel } from '../interactive/input-required';
import type { DirectCallOptions } from './harness';
import { answerFromMap, harnessView, type HarnessInputAnswer } from './harness-answers';

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
  tasks: TaskManager | undefined,
  tool: CompiledTool,
  args: Record<string, unknown>,
  options: DirectCallOptions
): Promise<CallToolResult> {
  const support = tool.descriptor.task;
  if (!tasks || !support)
    throw new ConfigurationError(`Tool ${tool.info.name} does not run as a task: give it task: 'optional' or 'required'.`);
  const { onInput, answers, signal } = options;
  const canAnswer = Boolean(onInput || answers);
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
    inputChannel: canAnswer
      ? { form: true, url: true, sampling: true, roots: true }
      : noInputChannel('the test harness was given no answers (pass { answers } or { onInput })')
  };
  let request = base;
  for (;;) {
    const started = await tasks.start(tool.info.name, support, request);
    if (isInputRequiredResult(started)) {
      request = { ...base, requestState: started.requestState, inputResponses: await answer(started.inputRequests ?? {}) };
      continue;
    }
    if ((started as { resultType?: unknown }).resultType !== 'task') return started as CallToolResult;
    return follow(tasks, (started as { taskId: string }).taskId, base, answer, options);
  }
}

async function follow(
  tasks: TaskManager,
  taskId: string,
  request: CallRequest,
  answer: (requests: Record<string, unknown>) => Promise<Record<string, HarnessInputAnswer>>,
  options: DirectCallOptions
): Promise<CallToolResult> {
  const { signal } = options;
  const cancel = (): void => void tasks.cancel(taskId, request).catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    let answeredRound: string | undefined;
    for (;;) {
      // Listen before reading, so a change between the read and the wait is not missed.
      const change = tasks.nextChange(taskId);
      const view: TaskView = await tasks.get(taskId, request);
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
          await tasks.update(taskId, await answer(requests), request);
          continue;
        }
      }
      await change;
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}
