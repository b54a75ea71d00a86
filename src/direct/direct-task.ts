import type { CallToolResult } from '@modelcontextprotocol/server';
import { ConfigurationError, InputRoundsExceededError } from '../errors';
import type { CompiledTool } from '../pipeline/compiled-member';
import type { AppTasks } from '../tasks/app-tasks';
import type { TaskView } from '../tasks/task-lifecycle';
import { TASKS_EXTENSION } from '../tasks/task-record';
import type { DirectCallOptions, HarnessInputAnswer } from '../types/harness';
import type { CallRequest } from '../types/request';
import { followInputRounds } from '../wire/input-rounds';
import { answerRequests, directChannel } from './direct-answers';
import type { DirectTarget } from './direct-target';

type Answer = (requests: Readonly<Record<string, unknown>>) => Promise<Record<string, HarnessInputAnswer>>;

/**
 * `app.callTool(name, args, { asTask: true })`: calls a task-capable tool the way a client with
 * the tasks extension would, and follows it to its end: requests for input asked before the
 * task exists are answered and the call made again (the rounds of `wire/input-rounds.ts`), a
 * task is followed through its statuses (each one handed to `onTask`), its requests for input
 * are answered with `tasks/update`, and its final result is returned: the tool's result when
 * completed (an `isError` one included), an `isError` result saying so when it failed or was
 * cancelled. Aborting `signal` cancels the task. No polling: it waits for the task's next change.
 */
export async function driveTask(
  target: DirectTarget,
  tool: CompiledTool,
  args: Record<string, unknown>,
  options: DirectCallOptions
): Promise<CallToolResult> {
  const { tasks } = target;
  if (!tasks || !tool.descriptor.task)
    throw new ConfigurationError(`Tool ${tool.info.name} does not run as a task: give it task: 'optional' or 'required'.`);
  const answer = answerRequests(options);
  const base: CallRequest = {
    subject: tool.info.name,
    arguments: args,
    signal: options.signal,
    meta: options.meta,
    authInfo: options.authInfo,
    era: 'modern',
    clientCapabilities: { extensions: { [TASKS_EXTENSION]: {} }, elicitation: { form: {}, url: {} }, sampling: {}, roots: {} } as never,
    inputChannel: directChannel(options)
  };
  const round = (requestState: string | undefined, inputResponses: Record<string, unknown> | undefined) =>
    target.run(tool, requestState === undefined && !inputResponses ? base : { ...base, requestState, inputResponses }) as Promise<
      Record<string, unknown>
    >;
  const started = await followInputRounds(round(undefined, undefined), {
    next: round,
    answer,
    tooManyRounds: (rounds) => new InputRoundsExceededError(`Tool ${tool.info.name}`, rounds)
  });
  if (started.resultType !== 'task') return started as CallToolResult;
  return follow(tasks, started.taskId as string, base, answer, options);
}

async function follow(
  tasks: AppTasks,
  taskId: string,
  request: CallRequest,
  answer: Answer,
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
