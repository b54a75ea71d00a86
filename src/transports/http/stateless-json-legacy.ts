import { WebStandardStreamableHTTPServerTransport, type AuthInfo, type McpServerFactory } from '@modelcontextprotocol/server';
import { statelessMethodNotAllowed } from './protocol-refusals';
import type { EntryRequest } from './entry-request';

/**
 * 2025-era requests in JSON-only mode: one fresh server and transport per request, no
 * session, and one JSON body per answer (the SDK's own stateless fallback streams SSE).
 */
export function statelessJsonLegacy(factory: McpServerFactory) {
  return async (entry: EntryRequest, parsedBody: unknown, authInfo: AuthInfo | undefined): Promise<Response> => {
    if (entry.method !== 'POST') return statelessMethodNotAllowed();
    const request = entry.web();
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
