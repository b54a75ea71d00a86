import { WebStandardStreamableHTTPServerTransport, type AuthInfo, type McpServerFactory } from '@modelcontextprotocol/server';
import { statelessMethodNotAllowed } from './protocol-refusals';

/**
 * 2025-era requests in JSON-only mode: one fresh server and transport per request, no
 * session, and one JSON body per answer (the SDK's own stateless fallback streams SSE).
 */
export function statelessJsonLegacy(factory: McpServerFactory) {
  return async (request: Request, parsedBody: unknown, authInfo: AuthInfo | undefined): Promise<Response> => {
    if (request.method !== 'POST') return statelessMethodNotAllowed();
    const server = await factory({ era: 'legacy', authInfo, requestInfo: request });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { parsedBody, authInfo });
    } finally {
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
    }
  };
}
