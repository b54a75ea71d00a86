import { ProtocolError, ProtocolErrorCode, Server, type McpServerFactory } from '@modelcontextprotocol/server';
import type { ToolEngine } from '../app/tool-engine';
import { UnknownToolError } from '../errors';
import type { ProgressSend } from '../pipeline/progress';

/** Identity and instructions the server announces. */
export interface ServerIdentity {
  readonly name: string;
  readonly version: string;
  readonly instructions?: string;
}

/**
 * The SDK server factory for an app: a low-level `Server` whose `tools/list` answers the
 * listing built at startup and whose `tools/call` runs the compiled chains. Building one
 * costs two handler registrations, so the per-request factories of the HTTP entry stay cheap.
 */
export function createServerFactory(engine: ToolEngine, identity: ServerIdentity): McpServerFactory {
  const listResult = { tools: engine.listing as never[] };
  return () => {
    // The low-level Server (marked deprecated in favour of McpServer) is the documented layer for owning dispatch.
    const server = new Server(
      { name: identity.name, version: identity.version },
      { capabilities: { tools: { listChanged: false } }, ...(identity.instructions ? { instructions: identity.instructions } : {}) }
    );
    server.setRequestHandler('tools/list', () => listResult);
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const { name, arguments: args } = request.params;
      const meta = ctx.mcpReq._meta as Record<string, unknown> | undefined;
      const token = meta?.progressToken as string | number | undefined;
      const sendProgress: ProgressSend | undefined =
        token === undefined
          ? undefined
          : (progress, message) =>
              ctx.mcpReq.notify({
                method: 'notifications/progress',
                params: { progressToken: token, progress, total: 100, ...(message !== undefined ? { message } : {}) }
              });
      try {
        const result = await engine.call({
          name,
          arguments: args,
          signal: ctx.mcpReq.signal,
          requestId: ctx.mcpReq.id,
          meta,
          authInfo: ctx.http?.authInfo,
          httpRequest: ctx.http?.req,
          sessionId: ctx.sessionId,
          sendProgress
        });
        return server.projectCallToolResult(result, engine.get(name)?.outputSchema);
      } catch (error) {
        if (error instanceof UnknownToolError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
        throw error;
      }
    });
    return server;
  };
}
