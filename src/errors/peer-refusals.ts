import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';

/**
 * The JSON-RPC error the framework answers a peer's request with when it refuses it outside any
 * compiled chain: the gateway answering a request its upstream sent (a question the front client
 * would not take), as an invalid request (-32600) saying why. Built here, with the framework's
 * other errors, rather than where it is thrown.
 */
export function invalidRequest(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidRequest, message);
}
