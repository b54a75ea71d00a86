/**
 * Every refusal the HTTP entry answers before a call exists is built in one module: each one's
 * wire form (status, content type, JSON-RPC code and message) is pinned here, so moving a guard
 * cannot change what a client receives.
 */
import {
  MAX_BODY_BYTES,
  endpointNotFound,
  hostNotAllowed,
  internalError,
  invalidJson,
  jsonRpcErrorResponse,
  payloadTooLarge,
  sessionNotFound,
  sessionRequired,
  shuttingDown,
  statelessMethodNotAllowed,
  tooManySessions,
  unreadableBody,
  unsupportedMediaType
} from '../../../../src/transports/http/protocol-refusals';

describe('the refusals of the HTTP entry', () => {
  it.each<[string, number, number, string, Response]>([
    ['a path off the endpoint', 404, -32000, 'Not found: the MCP endpoint is /mcp', endpointNotFound('/mcp')],
    ['a Host that is not allowed', 403, -32000, 'Forbidden: Host evil.example is not allowed', hostNotAllowed('evil.example')],
    [
      'a content type that is not JSON',
      415,
      -32000,
      'Unsupported Media Type: Content-Type must be application/json',
      unsupportedMediaType()
    ],
    ['a body that cannot be read', 400, -32700, 'Parse error: the request body could not be read', unreadableBody()],
    ['a body over the limit', 413, -32000, `Payload Too Large: the request body exceeds ${MAX_BODY_BYTES} bytes`, payloadTooLarge()],
    ['a body that is not JSON', 400, -32700, 'Parse error: the request body is not valid JSON', invalidJson()],
    ['a failure of the entry itself', 500, -32603, 'Internal server error', internalError()],
    ['a request after close', 503, -32000, 'Server is shutting down', shuttingDown()],
    ['an unknown session', 404, -32001, 'Session not found: start a new session with initialize', sessionNotFound()],
    [
      'a 2025-era request without a session',
      400,
      -32000,
      'Bad Request: Mcp-Session-Id header required (send initialize first)',
      sessionRequired()
    ],
    ['a session beyond the bound', 503, -32000, 'Too many open sessions (2); retry later', tooManySessions(2)],
    ['a GET in JSON mode', 405, -32000, 'Method not allowed: this endpoint is stateless (JSON mode)', statelessMethodNotAllowed()]
  ])('%s: HTTP %i, JSON-RPC %i, %p', async (_name, status, code, message, response) => {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ jsonrpc: '2.0', error: { code, message }, id: null });
  });

  it('a JSON-RPC error answers the request id when one is given', async () => {
    expect(await jsonRpcErrorResponse(400, -32602, 'bad', 7).json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32602, message: 'bad' },
      id: 7
    });
  });

  it('the body limit is the SDK default (4 MiB), so both legs refuse the same bodies', () => {
    expect(MAX_BODY_BYTES).toBe(4 * 1024 * 1024);
  });
});
