// The bare SDK as a Worker, for scripts/workerd/measure-template.mjs: what the Workers template is measured beside
// (docs/deploy.md, "Cloudflare Workers"). Run it from a copy whose node_modules has @modelcontextprotocol/{server,client}
// and wrangler (node_modules/.bin/wrangler).
import { McpServer, createMcpHandler, fromJsonSchema } from '@modelcontextprotocol/server';

let handler;
export default {
  async fetch(request) {
    handler ??= createMcpHandler(() => {
      const server = new McpServer({ name: 'bare', version: '1.0.0' });
      server.registerTool(
        'greet',
        {
          description: 'Say hello',
          inputSchema: fromJsonSchema({
            type: 'object',
            properties: { name: { type: 'string', minLength: 1, maxLength: 50 } },
            required: ['name']
          })
        },
        async ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] })
      );
      return server;
    });
    return handler.fetch(request);
  }
};
