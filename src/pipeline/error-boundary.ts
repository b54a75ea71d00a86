import { randomUUID } from 'node:crypto';
import {
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type ClientCapabilities
} from '@modelcontextprotocol/server';
import { ErrorCode, FusionError, InvalidInputError, MaskedError, MissingCapabilityError } from '../errors';
import type { CallKind } from '../types/core';

export type { CallKind } from '../types/core';

/** Codes that are the protocol's business whatever the kind: they never become a tool result. */
const PROTOCOL_LEVEL: ReadonlySet<string> = new Set([
  ErrorCode.UNKNOWN_TOOL,
  ErrorCode.INVALID_REQUEST_STATE,
  ErrorCode.MISSING_CLIENT_CAPABILITY
]);

/** Codes that say the request cannot go on as asked (-32600 where there are no tool results). */
const INVALID_REQUEST: ReadonlySet<string> = new Set([
  ErrorCode.INPUT_DECLINED,
  ErrorCode.INPUT_ROUNDS_EXCEEDED,
  ErrorCode.NOT_INTERACTIVE,
  ErrorCode.ELICITATION_UNSUPPORTED,
  ErrorCode.INSUFFICIENT_SCOPE
]);

/**
 * The one place that decides what a failure becomes on the wire, for every kind of request.
 * Steps, catalogs and handlers throw; they never build error results. For tools, everything
 * but the protocol-level codes is an `isError` result the agent reads; for resources, prompts
 * and completions (which have no error results) everything is a JSON-RPC error. With `mask`,
 * an exception that is neither a `FusionError` (a `ToolError` included) nor a protocol error
 * reaches the client as a generic message with a reference, and the original goes to the log.
 */
export class ErrorBoundary {
  constructor(
    private readonly mask: boolean,
    private readonly log: (message: string) => void
  ) {}

  /** A tool call's failure: an `isError` result, or a thrown protocol error. */
  toolResult(error: unknown, name: string): CallToolResult {
    const shown = this.reveal(error, 'tool', name);
    // The framework's own errors first: a FusionError is never a ProtocolError (whose instanceof check is a function).
    if (shown instanceof FusionError ? PROTOCOL_LEVEL.has(shown.code) : shown instanceof ProtocolError) {
      throw this.protocolError(shown, 'tool', name);
    }
    return { isError: true, content: [{ type: 'text', text: shown instanceof Error ? shown.message : String(shown) }] };
  }

  /**
   * A failure as the JSON-RPC error a transport answers with. `subject` names what was asked
   * for (the prompt's name, the resource's URI) in the messages that need it.
   */
  protocolError(error: unknown, kind: CallKind, subject: string): Error {
    const shown = this.reveal(error, kind, subject);
    if (shown instanceof ProtocolError) return shown;
    if (shown instanceof MissingCapabilityError) {
      return new MissingRequiredClientCapabilityError(
        { requiredCapabilities: shown.requiredCapabilities as ClientCapabilities },
        shown.message
      );
    }
    if (shown instanceof InvalidInputError && kind !== 'tool') {
      const what = kind === 'resource' ? `Invalid URI ${subject}` : `Invalid arguments for ${kind} ${subject}`;
      return new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `${what}: ${shown.violations.map((v) => `${v.path}: ${v.message}`).join('; ')}`
      );
    }
    if (shown instanceof FusionError) {
      if (PROTOCOL_LEVEL.has(shown.code) || shown.code === ErrorCode.INVALID_INPUT) {
        return new ProtocolError(ProtocolErrorCode.InvalidParams, shown.message);
      }
      if (INVALID_REQUEST.has(shown.code)) return new ProtocolError(ProtocolErrorCode.InvalidRequest, shown.message);
    }
    return new ProtocolError(ProtocolErrorCode.InternalError, shown instanceof Error ? shown.message : String(shown));
  }

  /** The error itself, or (masking on, and not one the framework or the protocol raised) its masked stand-in. */
  private reveal(error: unknown, kind: CallKind, subject: string): unknown {
    if (!this.mask || error instanceof FusionError || error instanceof ProtocolError) return error;
    const masked = new MaskedError(randomUUID().slice(0, 8));
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    this.log(`${kind} ${subject} failed (reference ${masked.reference}): ${detail}`);
    return masked;
  }
}
