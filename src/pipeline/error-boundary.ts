import { randomUUID } from 'node:crypto';
import type { CallToolResult, ClientCapabilities, ProtocolError } from '@modelcontextprotocol/server';
import { serverSdk } from '../wire/server-sdk';
import {
  CancelledError,
  ErrorCode,
  FusionError,
  InvalidInputError,
  MaskedError,
  MissingCapabilityError,
  OutputMismatchError,
  UnknownResourceError
} from '../errors';
import type { CallKind, CallMode } from '../types/core';
import type { JsonRpcErrorObject, TaskOutcome } from '../types/tasks';

/** Codes that are the protocol's business whatever the kind: they never become a tool result (-32602, or -32021). */
const INVALID_PARAMS: ReadonlySet<string> = new Set([
  ErrorCode.UNKNOWN_TOOL,
  ErrorCode.UNKNOWN_PROMPT,
  ErrorCode.UNKNOWN_RESOURCE,
  ErrorCode.UNKNOWN_COMPLETION_REF,
  ErrorCode.TASK_NOT_FOUND,
  ErrorCode.INVALID_PARAMS,
  ErrorCode.INVALID_REQUEST_STATE
]);

/** Codes that say the request cannot go on as asked (-32600 where there are no tool results). */
const INVALID_REQUEST: ReadonlySet<string> = new Set([
  ErrorCode.INPUT_DECLINED,
  ErrorCode.INPUT_ROUNDS_EXCEEDED,
  ErrorCode.NOT_INTERACTIVE,
  ErrorCode.ELICITATION_UNSUPPORTED,
  ErrorCode.INSUFFICIENT_SCOPE
]);

/** Whether a failure is the protocol's business (a JSON-RPC error whatever the kind), not the tool's. */
function protocolLevel(error: unknown): boolean {
  // The framework's own errors first: a FusionError is never a ProtocolError (whose instanceof check is a function).
  if (error instanceof FusionError) return INVALID_PARAMS.has(error.code) || error.code === ErrorCode.MISSING_CLIENT_CAPABILITY;
  return error instanceof serverSdk().ProtocolError;
}

/**
 * The one place that decides what a failure becomes on the wire, for every kind of request and
 * both modes of a call. Steps, catalogs, the dispatcher, tasks and handlers throw; they never
 * build error results or JSON-RPC errors. The compiled chain's outermost step
 * (`steps/error-boundary.step.ts`) hands it every call's failure; the dispatcher hands it the
 * failures of requests that are not calls (`tasks/*`, lists, an unknown name).
 *
 * - A tool call answered in its request: protocol-level codes are JSON-RPC errors, everything
 *   else an `isError` result the agent reads.
 * - A tool call running as a task: what would be an `isError` result completes the task with
 *   it; anything else (a protocol-level code, an unexpected exception) fails the task with the
 *   JSON-RPC error object.
 * - Resources, prompts and completions have no error results: everything is a JSON-RPC error.
 *
 * A developer's bug is told to the server's log (the app's `logger`, stderr by default), never
 * only to the client: every exception that is neither a `FusionError` (a `ToolError` included)
 * nor a protocol error, and every {@link OutputMismatchError}, is logged once with the member,
 * the call's id and the stack. With `mask`, such an exception reaches the client as a generic
 * message with a reference, and the log line carries the same reference.
 */
export class ErrorBoundary {
  constructor(
    private readonly mask: boolean,
    private readonly log: (message: string) => void
  ) {}

  /**
   * A call's failure as its answer: an `isError` result (tools), a task outcome (tools in task
   * mode), or a thrown JSON-RPC error.
   */
  fail(kind: CallKind, subject: string, mode: CallMode, error: unknown, call?: CallIdentity): CallToolResult | TaskOutcome {
    // The commonest failure first (thousands of queued calls cancelled at once): a cancelled tool call in its request is
    // an isError result saying so, nothing logged; what the general path below makes of it, without its checks.
    if (error instanceof CancelledError && kind === 'tool' && mode === 'request') return errorResult(error.message);
    if (kind === 'tool' && mode === 'task') {
      // The run was aborted by a cancel (tasks/cancel, expiry): the task is cancelled, not completed with an error.
      if (error instanceof CancelledError) return { cancelled: error.message };
      // An exception that is not the framework's fails a task (in a request it is an isError result).
      if (protocolLevel(error) || !(error instanceof FusionError))
        return { error: jsonRpcErrorObject(this.protocolError(error, kind, subject, call)) };
      this.report(error, kind, subject, call);
      return { value: { ...errorResult(error.message), resultType: 'complete' } };
    }
    const shown = this.reveal(error, kind, subject, call);
    if (kind === 'tool' && !protocolLevel(shown)) return errorResult(shown instanceof Error ? shown.message : String(shown));
    throw this.toProtocolError(shown, kind, subject);
  }

  /** A call's result in task mode: the task's outcome (a 2026-07-28 result carries its `resultType`). */
  taskResult(value: unknown): TaskOutcome {
    const result = value as Record<string, unknown>;
    return { value: result.resultType === undefined ? { ...result, resultType: 'complete' } : result };
  }

  /**
   * A failure as the JSON-RPC error a transport answers with. `subject` names what was asked
   * for (the prompt's name, the resource's URI) in the messages that need it.
   */
  protocolError(error: unknown, kind: CallKind, subject: string, call?: CallIdentity): ProtocolError {
    return this.toProtocolError(this.reveal(error, kind, subject, call), kind, subject);
  }

  /** An error already revealed (or masked) as its JSON-RPC error. */
  private toProtocolError(shown: unknown, kind: CallKind, subject: string): ProtocolError {
    const { MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode, ResourceNotFoundError } = serverSdk();
    if (shown instanceof ProtocolError) return shown;
    if (shown instanceof MissingCapabilityError) {
      return new MissingRequiredClientCapabilityError(
        { requiredCapabilities: shown.requiredCapabilities as ClientCapabilities },
        shown.message
      );
    }
    if (shown instanceof UnknownResourceError) return new ResourceNotFoundError(shown.uri, shown.message);
    if (shown instanceof InvalidInputError && kind !== 'tool') {
      const what = kind === 'resource' ? `Invalid URI ${subject}` : `Invalid arguments for ${kind} ${subject}`;
      return new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `${what}: ${shown.violations.map((v) => `${v.path || '(arguments)'}: ${v.message}`).join('; ')}`
      );
    }
    if (shown instanceof FusionError) {
      if (INVALID_PARAMS.has(shown.code) || shown.code === ErrorCode.INVALID_INPUT) {
        return new ProtocolError(ProtocolErrorCode.InvalidParams, shown.message);
      }
      if (INVALID_REQUEST.has(shown.code)) return new ProtocolError(ProtocolErrorCode.InvalidRequest, shown.message);
    }
    return new ProtocolError(ProtocolErrorCode.InternalError, shown instanceof Error ? shown.message : String(shown));
  }

  /**
   * The error itself, or (masking on, and not one the framework or the protocol raised) its
   * masked stand-in; a developer's bug is logged here, once, whatever the setting.
   */
  private reveal(error: unknown, kind: CallKind, subject: string, call: CallIdentity | undefined): unknown {
    if (error instanceof FusionError || error instanceof serverSdk().ProtocolError) {
      this.report(error, kind, subject, call);
      return error;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    if (!this.mask) {
      this.log(`${kind} ${subject} failed${callLabel(call)} with an unexpected exception (sent to the client as thrown): ${detail}`);
      return error;
    }
    const masked = new MaskedError(randomUUID().slice(0, 8));
    this.log(`${kind} ${subject} failed${callLabel(call)} (reference ${masked.reference}): ${detail}`);
    return masked;
  }

  /** Logs the framework's errors that are a developer's bug (an output mismatch); the others are the caller's business. */
  private report(error: unknown, kind: CallKind, subject: string, call: CallIdentity | undefined): void {
    if (!(error instanceof OutputMismatchError)) return;
    this.log(`${kind} ${subject} failed${callLabel(call)}: ${error.stack ?? error.message}`);
  }
}

/** Which call failed, as the server's log names it: its JSON-RPC id and, in task mode, its task. */
export interface CallIdentity {
  /** The request's JSON-RPC id (absent for calls made through the test harness). */
  readonly requestId?: string | number;
  /** The task the call runs as, when it runs as one. */
  readonly taskId?: string;
}

/** ` (call 7, task 3f…)`; nothing for a call made in-process (`app.callTool`), which has no id. */
function callLabel(call: CallIdentity | undefined): string {
  const parts: string[] = [];
  if (call?.requestId !== undefined) parts.push(`call ${JSON.stringify(call.requestId)}`);
  if (call?.taskId !== undefined) parts.push(`task ${call.taskId}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/** A JSON-RPC error as the object a failed task carries (`tasks/get` `error`). */
export function jsonRpcErrorObject(error: ProtocolError): JsonRpcErrorObject {
  return { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) };
}

/** A tool error result: one text block saying what went wrong. */
function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}
