import { abortableDelay } from './abortable-delay';
import type { CallDisplay } from './call-display';
import { CliError, ExitCode } from './cli-error';
import { followInputRounds } from '@mcpfusion/core/input-rounds';
import { CLIENT_INFO, TASKS_EXTENSION, type Connection } from './connection';
import { UpstreamRpcError, type RawExchange } from '@mcpfusion/core/raw-exchange';
import type { Reply } from './questions/ask-form';
import type { QuestionParams } from './questions/question-handler';
import type { ToolResult } from './result-output';

/** What a call with `--task` needs from the command around it. */
export interface TaskCallContext {
  readonly signal: AbortSignal;
  readonly display: CallDisplay;
  readonly ask: (params: QuestionParams) => Promise<Reply>;
  /** The connection's raw requests (the SDK client refuses a `resultType: "task"` answer). */
  readonly raw: RawExchange;
}

const MODERN = '2026-07-28';
const DEFAULT_POLL_MS = 1000;
const MIN_POLL_MS = 100;

type Json = Record<string, unknown>;

let nextProgressToken = 1;

/**
 * One 2026-07-28 request with the per-request envelope (the tasks extension declared), over
 * the connection's SDK transport; its progress notifications reach the display through the
 * connection (`Connection.onProgress`). The envelope is written here because the SDK client can
 * neither declare an extension per request nor accept a task result (`RawExchange`, @mcpfusion/core/raw-exchange, says why).
 */
function post(context: TaskCallContext, method: string, params: Json, signal?: AbortSignal): Promise<Json> {
  return context.raw.request(
    method,
    {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {}, url: {} }, extensions: { [TASKS_EXTENSION]: {} } },
        'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
        ...(method === 'tools/call' ? { progressToken: `mcpfusion-${nextProgressToken++}` } : {})
      }
    },
    signal
  );
}

/** Answers the input requests of a round or of a task (only elicitation is declared). */
async function answerAll(context: TaskCallContext, requests: Readonly<Json>): Promise<Json> {
  const answers: Json = {};
  for (const [key, request] of Object.entries(requests)) {
    const { method, params } = request as { method?: string; params?: QuestionParams };
    answers[key] = method === 'elicitation/create' && params ? await context.ask(params) : { action: 'decline' };
  }
  return answers;
}

/** Polls a task with `tasks/get` until it ends, answering its questions with `tasks/update`; Ctrl-C sends `tasks/cancel`. */
async function followTask(context: TaskCallContext, created: Json): Promise<ToolResult> {
  const taskId = String(created.taskId);
  let task = created;
  try {
    for (;;) {
      const status = String(task.status);
      context.display.setStatus(`task ${taskId}: ${status}${task.statusMessage ? ` (${String(task.statusMessage)})` : ''}`);
      if (status === 'completed') return task.result as ToolResult;
      if (status === 'failed') {
        const error = (task.error ?? {}) as { code?: number; message?: string };
        throw new UpstreamRpcError(error.code ?? -32603, `the task failed: ${error.message ?? 'no reason given'}`);
      }
      if (status === 'cancelled') throw new UpstreamRpcError(-32800, 'the task was cancelled');
      if (status === 'input_required' && task.inputRequests) {
        const inputResponses = await answerAll(context, task.inputRequests as Json);
        context.signal.throwIfAborted();
        await post(context, 'tasks/update', { taskId, inputResponses }, context.signal);
      } else {
        const interval = Math.max(MIN_POLL_MS, Number(task.pollIntervalMs ?? created.pollIntervalMs ?? DEFAULT_POLL_MS));
        await abortableDelay(interval, context.signal);
      }
      task = await post(context, 'tasks/get', { taskId }, context.signal);
    }
  } catch (error) {
    if (context.signal.aborted) await post(context, 'tasks/cancel', { taskId }).catch(() => undefined);
    throw error;
  }
}

/**
 * `call --task`: the call is sent with the tasks extension declared; a plain answer is
 * returned as it is (its rounds of input answered here: `wire/input-rounds.ts`), a task is
 * followed to its end.
 */
export async function runTaskCall(
  connection: Connection,
  name: string,
  args: Json,
  options: Omit<TaskCallContext, 'raw'> & { http: boolean }
): Promise<ToolResult> {
  if (!connection.modern || !options.http)
    throw new CliError('--task needs an HTTP server on 2026-07-28 (the tasks extension); leave --task out otherwise', ExitCode.USAGE);
  const context: TaskCallContext = { ...options, raw: connection.raw };
  const call = (requestState: string | undefined, inputResponses: Json | undefined): Promise<Json> =>
    post(
      context,
      'tools/call',
      { name, arguments: args, ...(inputResponses ? { inputResponses } : {}), ...(requestState !== undefined ? { requestState } : {}) },
      context.signal
    );
  const result = await followInputRounds(call(undefined, undefined), {
    next: call,
    answer: (requests) => answerAll(context, requests),
    tooManyRounds: (rounds) => new UpstreamRpcError(-32603, `still asking for input after ${rounds} rounds`)
  });
  return result.resultType === 'task' ? followTask(context, result) : (result as ToolResult);
}
