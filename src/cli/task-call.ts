import type { CallDisplay } from './call-display';
import { CliError, ExitCode } from './cli-error';
import { CLIENT_INFO, TASKS_EXTENSION, type Connection } from './connection';
import type { Reply } from './questions/ask-form';
import type { QuestionParams } from './questions/question-handler';
import type { ToolResult } from './result-output';

/** What a call with `--task` needs from the command around it. */
export interface TaskCallContext {
  readonly signal: AbortSignal;
  readonly display: CallDisplay;
  readonly ask: (params: QuestionParams) => Promise<Reply>;
  readonly url: URL;
  readonly headers: Record<string, string>;
}

const MODERN = '2026-07-28';
const MAX_ROUNDS = 10;
const DEFAULT_POLL_MS = 1000;
const MIN_POLL_MS = 100;

type Json = Record<string, unknown>;

/** A JSON-RPC error answer, thrown with its code. */
class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string
  ) {
    super(message);
  }
}

let nextId = 1;

/**
 * One 2026-07-28 request over HTTP, with the per-request envelope (the tasks extension
 * declared) and the routing headers; reads a JSON or SSE answer, passing progress
 * notifications to the display. The SDK client refuses a `resultType: "task"` answer, so a
 * call that may become a task goes this way.
 */
async function post(context: TaskCallContext, method: string, params: Json, signal?: AbortSignal): Promise<Json> {
  const progressToken = `mcpfusion-${nextId}`;
  const body = {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {}, url: {} }, extensions: { [TASKS_EXTENSION]: {} } },
        'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
        ...(method === 'tools/call' ? { progressToken } : {})
      }
    }
  };
  const name = typeof params.taskId === 'string' ? params.taskId : typeof params.name === 'string' ? params.name : undefined;
  const res = await fetch(context.url, {
    method: 'POST',
    signal,
    headers: {
      ...context.headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {})
    },
    body: JSON.stringify(body)
  });
  const text = await res.text();
  const messages: Json[] = (res.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .filter((data) => data !== '')
        .map((data) => JSON.parse(data) as Json)
    : text
      ? [JSON.parse(text) as Json]
      : [];
  for (const message of messages) {
    const note = message.params as Json | undefined;
    if (message.method === 'notifications/progress' && note)
      context.display.progress({
        progress: Number(note.progress),
        total: note.total as number | undefined,
        message: note.message as string | undefined
      });
  }
  const response = messages.find((m) => 'result' in m || 'error' in m);
  if (!response) throw new Error(`${method}: HTTP ${res.status} without a JSON-RPC answer`);
  const error = response.error as { code: number; message: string } | undefined;
  if (error) throw new RpcFailure(error.code, error.message);
  return response.result as Json;
}

/** Answers the input requests of a round or of a task (only elicitation is declared). */
async function answerAll(context: TaskCallContext, requests: Json): Promise<Json> {
  const answers: Json = {};
  for (const [key, request] of Object.entries(requests)) {
    const { method, params } = request as { method?: string; params?: QuestionParams };
    answers[key] = method === 'elicitation/create' && params ? await context.ask(params) : { action: 'decline' };
  }
  return answers;
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
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
        throw new RpcFailure(error.code ?? -32603, `the task failed: ${error.message ?? 'no reason given'}`);
      }
      if (status === 'cancelled') throw new RpcFailure(-32800, 'the task was cancelled');
      if (status === 'input_required' && task.inputRequests) {
        const inputResponses = await answerAll(context, task.inputRequests as Json);
        context.signal.throwIfAborted();
        await post(context, 'tasks/update', { taskId, inputResponses }, context.signal);
      } else {
        const interval = Math.max(MIN_POLL_MS, Number(task.pollIntervalMs ?? created.pollIntervalMs ?? DEFAULT_POLL_MS));
        await delay(interval, context.signal);
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
 * returned as it is (MRTR rounds answered here), a task is followed to its end.
 */
export async function runTaskCall(
  connection: Connection,
  name: string,
  args: Json,
  options: Omit<TaskCallContext, 'url' | 'headers'> & { url?: URL; headers?: Record<string, string> }
): Promise<ToolResult> {
  if (!connection.modern || !options.url)
    throw new CliError('--task needs an HTTP server on 2026-07-28 (the tasks extension); leave --task out otherwise', ExitCode.USAGE);
  const context: TaskCallContext = { ...options, url: options.url, headers: options.headers ?? {} };
  let params: Json = { name, arguments: args };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const result = await post(context, 'tools/call', params, context.signal);
    if (result.resultType === 'task') return followTask(context, result);
    if (result.resultType !== 'input_required') return result as ToolResult;
    const inputResponses = result.inputRequests ? await answerAll(context, result.inputRequests as Json) : {};
    params = { name, arguments: args, inputResponses, ...(result.requestState !== undefined ? { requestState: result.requestState } : {}) };
  }
  throw new RpcFailure(-32603, `still asking for input after ${MAX_ROUNDS} rounds`);
}
