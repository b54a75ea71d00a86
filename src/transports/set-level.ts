import type { JSONRPCRequest, LoggingLevel, Result, Server, ServerContext } from '@modelcontextprotocol/server';
import type { LiveServers } from './live-servers';

/** The SDK's registered handler of a method, as its protected accessor gives it (role classes dispatch through it). */
type StoredHandler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * Serves `logging/setLevel` on a long-lived server instance: the SDK's own handler still keeps the
 * level (its in-request logging, `ctx.mcpReq.log`, filters by it), and `live` records it too, so
 * that messages sent between requests (a gateway's upstream logging on its own) are filtered by
 * it and the member sources that follow levels hear of it (a gateway forwards it upstream).
 */
export function serveSetLevel(server: Server, live: LiveServers): void {
  const sdk = (server as unknown as { _getRequestHandler?(method: string): StoredHandler | undefined })._getRequestHandler?.(
    'logging/setLevel'
  );
  server.setRequestHandler('logging/setLevel', async (request, ctx) => {
    const result = sdk
      ? await sdk({ jsonrpc: '2.0', id: ctx.mcpReq.id, method: 'logging/setLevel', params: request.params } as JSONRPCRequest, ctx)
      : {};
    live.setLevel(server, request.params.level as LoggingLevel);
    return result as never;
  });
}
