import { isInputRequiredResult, type CallToolResult, type InputRequiredResult } from '@modelcontextprotocol/server';
import type { CallEngine } from '../app/call-engine';
import { noInputChannel, type InputChannel } from '../interactive/input-required';
import type { CallRequest } from '../pipeline/call-request';
import type { RequestExtra } from '../pipeline/call-context';
import type { CompiledTool } from '../pipeline/compiled-member';
import { answerFromMap, harnessView, type HarnessInputAnswer, type HarnessInputRequest } from './harness-answers';

/** Options of the test entry point `app.callTool`. */
export interface DirectCallOptions {
  /**
   * Answers to requests for input, by field name: a form is accepted with the fields it asks
   * for (declined when none of them is here); a URL request is accepted unless its key maps to
   * `false`; a sampling request is answered with `answers[key]` (a sampling result), a roots
   * request with `{ roots: answers[key] }`.
   */
  answers?: Record<string, unknown>;
  /** Answers requests for input one by one (takes precedence over `answers`). */
  onInput?: (request: HarnessInputRequest) => HarnessInputAnswer | Promise<HarnessInputAnswer>;
  signal?: AbortSignal;
  /** The request `_meta`, as a client would send it. */
  meta?: Record<string, unknown>;
  /** Receives progress as a client with a progress token would. Without it, no progress channel exists. */
  onProgress?: (progress: number, message: string | undefined) => void;
  authInfo?: RequestExtra['authInfo'];
  /**
   * Call a task-capable tool as a client with the tasks extension would, and follow the task to
   * its end (its requests for input answered from `answers`/`onInput` through `tasks/update`).
   */
  asTask?: boolean;
  /** With `asTask`: every status of the task as `tasks/get` shows it. */
  onTask?: (task: Record<string, unknown> & { taskId: string; status: string }) => void;
}

/** What the harness's calls can deliver: everything when it has answers, nothing (with why) otherwise. */
const ANSWERING: InputChannel = { form: true, url: true, sampling: true, roots: true };
const NOT_ANSWERING: InputChannel = noInputChannel('the test harness was given no answers (pass { answers } or { onInput })');

/**
 * Calls a tool through its full chain with no transport, like a 2026-era client: on an
 * input-required result it answers (from `answers` or `onInput`) and retries with the echoed
 * state until the result is complete. Failures resolve as `isError` results. The first round is
 * chained, not awaited: a call waiting in the queue keeps no suspended frame here.
 */
export function callThroughHarness(
  engine: CallEngine,
  tool: CompiledTool,
  args: Record<string, unknown>,
  options: DirectCallOptions
): Promise<CallToolResult> {
  return engine
    .callTool(tool, roundRequest(tool, args, options, undefined, undefined))
    .then((result) => (isInputRequiredResult(result) ? answerRounds(engine, tool, args, options, result) : (result as CallToolResult)));
}

/** The rounds after an input-required result: answered, retried with the echoed state, until complete. */
async function answerRounds(
  engine: CallEngine,
  tool: CompiledTool,
  args: Record<string, unknown>,
  options: DirectCallOptions,
  first: InputRequiredResult
): Promise<CallToolResult> {
  const { onInput, answers } = options;
  let result: CallToolResult | InputRequiredResult = first;
  while (isInputRequiredResult(result)) {
    const inputResponses: Record<string, unknown> = {};
    for (const [key, embedded] of Object.entries(result.inputRequests ?? {})) {
      const request = harnessView(key, embedded as { method: string; params?: Record<string, unknown> });
      inputResponses[key] = onInput ? await onInput(request) : answerFromMap(request, answers ?? {});
    }
    result = await engine.callTool(tool, roundRequest(tool, args, options, result.requestState, inputResponses));
  }
  return result;
}

function roundRequest(
  tool: CompiledTool,
  args: Record<string, unknown>,
  options: DirectCallOptions,
  requestState: string | undefined,
  inputResponses: Record<string, unknown> | undefined
): CallRequest {
  const { onProgress } = options;
  return {
    subject: tool.info.name,
    arguments: args,
    signal: options.signal,
    meta: options.meta,
    authInfo: options.authInfo,
    sendProgress: onProgress ? async (progress, message) => onProgress(progress, message) : undefined,
    requestState,
    inputResponses,
    inputChannel: options.onInput || options.answers ? ANSWERING : NOT_ANSWERING
  };
}
