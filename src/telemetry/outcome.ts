import { AppClosedError, CancelledError, TimeoutError } from '../errors';
import type { Era } from '../types/core';
import { ERROR_TYPE_TOOL_ERROR } from './conventions';

/** How a request ended: with a result, or with an error (a JSON-RPC error, as the boundary made it). */
export type Outcome = { readonly result: unknown } | { readonly error: unknown };

/** What the conventions record of a failed request: `error.type`, the JSON-RPC code, the status message. */
export interface ErrorFacts {
  readonly type: string;
  readonly code?: string;
  readonly message?: string;
}

/**
 * The error facts of an outcome, or undefined when it succeeded. A JSON-RPC error's type is its
 * code (`-32602`); a tool result with `isError: true` is `tool_error` (the conventions' values).
 */
export function errorFacts(outcome: Outcome): ErrorFacts | undefined {
  if ('error' in outcome) {
    const error = outcome.error;
    if (error === undefined) return undefined;
    const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
    const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
    const text = typeof message === 'string' ? message : undefined;
    if (typeof code === 'number') return { type: String(code), code: String(code), message: text };
    return { type: error instanceof Error && error.name !== 'Error' ? error.name : '_OTHER', message: text };
  }
  const result = outcome.result as { isError?: unknown } | undefined;
  return typeof result === 'object' && result !== null && result.isError === true ? { type: ERROR_TYPE_TOOL_ERROR } : undefined;
}

/**
 * Why a call was cancelled, when its failure is a cancellation: `timeout` (its `timeoutMs`),
 * `shutdown` (the app closed), `task_cancel` (`tasks/cancel`), `client_cancel`
 * (`notifications/cancelled`: the SDK aborts with the client's reason, a string) or
 * `stream_closed` (the response stream or connection went away: on 2026-07-28 that is how a
 * client cancels, so both are told apart by the era where the SDK gives no reason).
 */
export function cancellationSource(error: unknown, mode: 'request' | 'task', era: Era | undefined): string | undefined {
  if (error instanceof TimeoutError) return 'timeout';
  if (error instanceof AppClosedError) return 'shutdown';
  if (!(error instanceof CancelledError)) return undefined;
  if (mode === 'task') return 'task_cancel';
  const cause = error.cause;
  if (typeof cause === 'string') return 'client_cancel';
  if (cause instanceof Error && cause.name !== 'AbortError') return 'stream_closed';
  return era === 'legacy' ? 'client_cancel' : 'stream_closed';
}
