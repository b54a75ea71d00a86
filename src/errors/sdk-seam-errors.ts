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
