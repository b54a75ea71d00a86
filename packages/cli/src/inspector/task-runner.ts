import { abortableDelay } from '../abortable-delay';
import { followInputRounds } from '@mcpfusion/core/input-rounds';
import { UpstreamRpcError } from '@mcpfusion/core/raw-exchange';
import type { Answer, TaskState } from './inspector-protocol';
import { INSPECTOR_CAPABILITIES, INSPECTOR_CLIENT_INFO, OWN_TOKEN_PREFIX, TASKS_EXTENSION, type McpLink } from './mcp-link';
import type { QuestionParams } from './question-desk';

type Json = Record<string, unknown>;

const MODERN = '2026-07-28';
const DEFAULT_POLL_MS = 1000;
const MIN_POLL_MS = 100;

/** What a task call reports and asks while it runs (its progress is read at the link, by its token). */
export interface TaskCallHooks {
  readonly callId: string;
  readonly signal: AbortSignal;
  ask(params: QuestionParams, signal: AbortSignal): Promise<Answer>;
  task(state: TaskState): void;
}

/** The progress token of a task call's `tools/call` (the link keeps its progress from the SDK client). */
export function taskProgressToken(callId: string): string {
  return `${OWN_TOKEN_PREFIX}${callId}`;
}

/**
 * A tool call with the tasks extension declared (2026-07-28). The SDK client refuses a
 * `resultType: "task"` answer, so the call and the `tasks/*` requests go as they are over the
 * link's own transport (`RawExchange`), with the per-request envelope. A plain answer is returned
 * (its rounds of input answered through the page); a task is polled with `tasks/get` until it
 * ends, its questions answered with `tasks/update`; aborting sends `tasks/cancel`.
 */
export async function runTaskCall(link: McpLink, name: string, args: Json, hooks: TaskCallHooks): Promise<Json> {
  const progressToken = taskProgressToken(hooks.callId);
  const post = (method: string, params: Json, signal?: AbortSignal): Promise<Json> =>
    link.raw.request(
      method,
      {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': {
            ...INSPECTOR_CAPABILITIES,
            extensions: { ...INSPECTOR_CAPABILITIES.extensions, [TASKS_EXTENSION]: {} }
          },
          'io.modelcontextprotocol/clientInfo': INSPECTOR_CLIENT_INFO,
          ...(method === 'tools/call' ? { progressToken } : {})
        }
      },
      signal
    );
  const answerAll = async (requests: Readonly<Json>): Promise<Json> => {
    const answers: Json = {};
    for (const [key, request] of Object.entries(requests)) {
      const { method, params } = (request ?? {}) as { method?: string; params?: QuestionParams };
      // Only elicitation is declared; anything else is declined.
      answers[key] = method === 'elicitation/create' && params ? await hooks.ask(params, hooks.signal) : { action: 'decline' };
    }
    return answers;
  };
  const call = (requestState: string | undefined, inputResponses: Json | undefined): Promise<Json> =>
    post(
      'tools/call',
      { name, arguments: args, ...(inputResponses ? { inputResponses } : {}), ...(requestState !== undefined ? { requestState } : {}) },
      hooks.signal
    );
  const first = await followInputRounds(call(undefined, undefined), {
    next: call,
    answer: answerAll,
    tooManyRounds: (rounds) => new UpstreamRpcError(-32603, `still asking for input after ${rounds} rounds`)
  });
  if (first.resultType !== 'task') return first;

  const taskId = String(first.taskId);
  let task = first;
  try {
    for (;;) {
      const status = String(task.status);
      hooks.task({
        callId: hooks.callId,
        taskId,
        status,
        tool: name,
        ...(typeof task.statusMessage === 'string' ? { statusMessage: task.statusMessage } : {})
      });
      if (status === 'completed') return (task.result ?? {}) as Json;
      if (status === 'failed') {
        const error = (task.error ?? {}) as { code?: number; message?: string };
        throw new UpstreamRpcError(error.code ?? -32603, `the task failed: ${error.message ?? 'no reason given'}`);
      }
      if (status === 'cancelled') throw new UpstreamRpcError(-32800, 'the task was cancelled');
      if (status === 'input_required' && task.inputRequests) {
        const inputResponses = await answerAll(task.inputRequests as Json);
        hooks.signal.throwIfAborted();
        await post('tasks/update', { taskId, inputResponses }, hooks.signal);
      } else {
        await abortableDelay(Math.max(MIN_POLL_MS, Number(task.pollIntervalMs ?? first.pollIntervalMs ?? DEFAULT_POLL_MS)), hooks.signal);
      }
      task = await post('tasks/get', { taskId }, hooks.signal);
    }
  } catch (error) {
    if (hooks.signal.aborted) {
      await post('tasks/cancel', { taskId }).catch(() => undefined);
      hooks.task({ callId: hooks.callId, taskId, status: 'cancelled', tool: name, statusMessage: 'cancelled from the inspector' });
    }
    throw error;
  }
}
