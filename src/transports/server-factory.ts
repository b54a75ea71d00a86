import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  isInputRequiredResult,
  type ClientCapabilities,
  type McpServerFactory
} from '@modelcontextprotocol/server';
import { noInputChannel, type InputChannel } from '../interactive/input-required';
import type { ToolEngine } from '../app/tool-engine';
import { InvalidRequestStateError, UnknownToolError } from '../errors';
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
  return ({ era }) => {
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
          sendProgress,
          requestState: stringOrUndefined(ctx.mcpReq.requestState()),
          inputResponses: ctx.mcpReq.inputResponses,
          inputChannel: inputChannelOf(server, ctx.mcpReq.envelope as Record<string, unknown> | undefined, era)
        });
        return isInputRequiredResult(result) ? result : server.projectCallToolResult(result, engine.get(name)?.outputSchema);
      } catch (error) {
        if (error instanceof UnknownToolError || error instanceof InvalidRequestStateError) {
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
        }
        throw error;
      }
    });
    return server;
  };
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * What this request's connection can deliver. 2026-07-28: the capabilities the request
 * declares in its envelope (MRTR needs no live channel). 2025 era: the capabilities from
 * `initialize`, which only a persistent connection (stdio, an HTTP session) has seen; a
 * stateless instance has none, so it has no channel.
 */
function inputChannelOf(server: Server, envelope: Record<string, unknown> | undefined, era: 'legacy' | 'modern'): InputChannel {
  const declared = (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? server.getClientCapabilities();
  if (!declared) {
    return noInputChannel(
      era === 'legacy'
        ? 'this 2025-era connection is stateless (no session, no live channel to ask on); use a session, stdio, or a 2026-07-28 client'
        : 'the request declared no client capabilities'
    );
  }
  const elicitation = declared.elicitation as { form?: object; url?: object } | undefined;
  const form = elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
  const url = elicitation?.url !== undefined;
  const sampling = declared.sampling !== undefined;
  const roots = declared.roots !== undefined;
  return {
    form,
    url,
    sampling,
    roots,
    reason: `the client did not declare the capability this request for input needs (elicitation form: ${form}, url: ${url}; sampling: ${sampling}; roots: ${roots})`
  };
}
