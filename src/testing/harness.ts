import { isInputRequiredResult, type CallToolResult, type InputRequiredResult } from '@modelcontextprotocol/server';
import { provideDirectCaller, type AppInternals } from '../app/internals';
import type { CompiledTool } from '../pipeline/compiled-member';
import type { DirectCallOptions } from '../types/harness';
import type { CallRequest } from '../types/request';
import { ANSWERING, NOT_ANSWERING, answerFromMap, harnessView } from './harness-answers';
import { driveTask } from './task-harness';

export type { DirectCallOptions } from '../types/harness';

/**
 * Calls a tool through its full chain with no transport, like a 2026-era client: on an
 * input-required result it answers (from `answers` or `onInput`) and retries with the echoed
 * state until the result is complete. Failures resolve as `isError` results. The first round is
 * chained, not awaited: a call waiting in the queue keeps no suspended frame here.
 */
export function callThroughHarness(
  internals: AppInternals,
  tool: CompiledTool,
  args: Record<string, unknown>,
  options: DirectCallOptions
): Promise<CallToolResult> {
  if (options.asTask) return driveTask(internals, tool, args, options);
  return (
    internals.engine.run(tool, roundRequest(tool, args, options, undefined, undefined)) as Promise<CallToolResult | InputRequiredResult>
  ).then((result) => (isInputRequiredResult(result) ? answerRounds(internals, tool, args, options, result) : result));
}

// `app.callTool` reaches the harness through the app's internal seam.
provideDirectCaller(callThroughHarness);

/** The rounds after an input-required result: answered, retried with the echoed state, until complete. */
async function answerRounds(
  internals: AppInternals,
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
    result = (await internals.engine.run(tool, roundRequest(tool, args, options, result.requestState, inputResponses))) as
      CallToolResult | InputRequiredResult;
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
