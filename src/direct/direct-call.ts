/**
 * Calling a tool with no transport (`app.callTool`): what the app's test entry point runs. It
 * lives apart from `src/testing/` so that the package root loads nothing of the test client,
 * and `src/app/` imports it directly (no registration, no side-effect import).
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { InputRoundsExceededError } from '../errors';
import type { CompiledTool } from '../pipeline/compiled-member';
import type { DirectCallOptions } from '../types/harness';
import type { CallRequest } from '../types/request';
import { asksForInput, followInputRounds, type AskedInput } from '../wire/input-rounds';
import { answerRequests, directChannel } from './direct-answers';
import { driveTask } from './direct-task';
import type { DirectTarget } from './direct-target';

/**
 * Calls a tool through its full chain with no transport, like a 2026-era client: on an
 * input-required result it answers (from `answers` or `onInput`) and calls again with the echoed
 * state until the result is complete (the rounds of `wire/input-rounds.ts`). With `asTask`, the
 * call is followed as a task (see `driveTask`). Failures resolve as `isError` results.
 */
export function callDirect(
  target: DirectTarget,
  tool: CompiledTool,
  args: Record<string, unknown>,
  options: DirectCallOptions
): Promise<CallToolResult> {
  if (options.asTask) return driveTask(target, tool, args, options);
  // The rounds are set up only when the tool asks: the first answer is read as the call ends
  // (no reaction of its own), and a call answered at once holds nothing else of this function.
  return target.run(tool, roundRequest(tool, args, options, undefined, undefined), (result) =>
    asksForInput(result) ? laterRounds(target, tool, args, options, result as AskedInput) : result
  ) as Promise<CallToolResult>;
}

/** The rounds after a first answer that asks for input (`wire/input-rounds.ts`, the one loop). */
function laterRounds(
  target: DirectTarget,
  tool: CompiledTool,
  args: Record<string, unknown>,
  options: DirectCallOptions,
  asked: AskedInput
): Promise<CallToolResult> {
  return followInputRounds<CallToolResult>(Promise.resolve(asked), {
    next: (requestState, inputResponses) =>
      target.run(tool, roundRequest(tool, args, options, requestState, inputResponses)) as Promise<CallToolResult>,
    answer: answerRequests(options),
    tooManyRounds: (rounds) => new InputRoundsExceededError(`Tool ${tool.info.name}`, rounds)
  });
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
    sendProgress: onProgress ? async (progress, message, total) => onProgress(progress, message, total) : undefined,
    requestState,
    inputResponses,
    inputChannel: directChannel(options)
  };
}
