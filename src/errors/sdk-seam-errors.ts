import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/**
 * The internal errors (-32603) the SDK's server seam answers a 2026-07-28 `tools/call` with when
 * the handler's outcome is not one it may send (an `input_required` result without
 * `inputRequests` or `requestState`, an input request of a kind the revision does not define, a
 * URL elicitation signalled by throwing), with the SDK's own messages: the front lane of
 * 2026-07-28 answers them as the SDK does (`transports/http/front-lane/modern-wire.ts`). Built
 * here, with the framework's other errors, rather than where they are thrown.
 */
export function sdkSeamInternalError(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InternalError, message);
}

/** The JSON-RPC error object of a response. */
export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * What a handler's throw goes out as, the way the SDK's server answers it in both eras: the thrown
 * error's integer `code` (-32603 when it has none), with -32002 (resource not found, of earlier
 * revisions) sent as -32602 as the SDK's codecs do; its message, and its `data` when it has any.
 * One rule for both front lanes (`transports/http/front-lane/`), so their errors cannot drift apart.
 */
export function thrownAsWireError(thrown: { code?: unknown; message?: string; data?: unknown }): WireError {
  const code = Number.isSafeInteger(thrown.code) ? (thrown.code as number) : ProtocolErrorCode.InternalError;
  return {
    code: code === -32002 ? ProtocolErrorCode.InvalidParams : code,
    message: thrown.message ?? 'Internal error',
    ...(thrown.data !== undefined ? { data: thrown.data } : {})
  };
}

/**
 * What the SDK's server seam answers when a tool's result does not fit the spec's result schema
 * (`Server._wrapHandler` for `tools/call`: -32602, `Invalid tools/call result: ` and the schema's
 * issues): the front lanes check an app's results as it does (`front-lane/result-check.ts`).
 */
export function sdkSeamInvalidResult(issues: readonly unknown[]): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid tools/call result: ${JSON.stringify(issues, null, 2)}`);
}
