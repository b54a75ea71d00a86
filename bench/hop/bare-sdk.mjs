// The bare SDK v2 server the hop is measured against (as ../shared/peer-bench's servers/baseline-v2.mjs): McpServer
// with `echo` and `work` (`steps` progress notifications), createMcpHandler (per request; 2025-era clients get its
// stateless legacy fallback), toNodeHandler on node:http, on 127.0.0.1:$PORT.
import { createServer } from 'node:http';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import * as z from 'zod/v4';

function build() {
  const server = new McpServer({ name: 'bench-bare-sdk', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echo the given text back', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({
      content: [{ type: 'text', text }]
    })
  );
  server.registerTool(
    'work',
    { description: 'Report `steps` progress notifications, then return "done"', inputSchema: z.object({ steps: z.number().int() }) },
    async ({ steps }, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      if (progressToken !== undefined)
        for (let i = 1; i <= steps; i++)
          await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress: i, total: steps } });
      return { content: [{ type: 'text', text: 'done' }] };
    }
  );
  return server;
}

const mcp = toNodeHandler(createMcpHandler(build));
createServer((req, res) => void mcp(req, res)).listen(Number(process.env.PORT), '127.0.0.1');
