import { isInputRequiredResult, type CallToolResult } from '@modelcontextprotocol/server';
import type { CallEngine } from '../app/call-engine';
import { noInputChannel } from '../interactive/input-required';
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

/**
 * Calls a tool through its full chain with no transport, like a 2026-era client: on an
 * input-required result it answers (from `answers` or `onInput`) and retries with the echoed
 * state until the result is complete. Failures resolve as `isError` results.
 */
export async function callThroughHarness(
  engine: CallEngine,
  tool: CompiledTool,
  args: Record<string, unknown>,
  options: DirectCallOptions
): Promise<CallToolResult> {
  const { onProgress, onInput, answers } = options;
  const canAnswer = Boolean(onInput || answers);
  let requestState: string | undefined;
  let inputResponses: Record<string, unknown> | undefined;
  for (;;) {
    const result = await engine.callTool(tool, {
      subject: tool.info.name,
      arguments: args,
      signal: options.signal,
      meta: options.meta,
      authInfo: options.authInfo,
      sendProgress: onProgress ? async (progress, message) => onProgress(progress, message) : undefined,
      requestState,
      inputResponses,
      inputChannel: canAnswer
        ? { form: true, url: true, sampling: true, roots: true }
        : noInputChannel('the test harness was given no answers (pass { answers } or { onInput })')
    });
    if (!isInputRequiredResult(result)) return result as CallToolResult;
    inputResponses = {};
    for (const [key, embedded] of Object.entries(result.inputRequests ?? {})) {
      const request = harnessView(key, embedded as { method: string; params?: Record<string, unknown> });
      inputResponses[key] = onInput ? await onInput(request) : answerFromMap(request, answers ?? {});
    }
    requestState = result.requestState;
  }
}
