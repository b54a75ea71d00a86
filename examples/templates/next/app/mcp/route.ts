import { mcpEndpoint } from '../../lib/mcp-handler';

// Node.js runtime (the framework uses Node's APIs), never prerendered or cached: every request is answered live.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * The MCP endpoint: POST carries every message (2026-07-28 requests stream their progress in the
 * answer), GET opens a 2025-era session's event stream, DELETE ends a 2025-era session. The
 * request goes to the endpoint untouched: its body unread, its signal ending when the client goes away.
 */
function serve(request: Request): Promise<Response> {
  return mcpEndpoint(request).fetch(request);
}

export const GET = serve;
export const POST = serve;
export const DELETE = serve;
