import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expectBadHostRefused, runTargetScenario, TEMPLATE_TOOLS } from './target-scenario';
import { startTarget } from './template-project';

/**
 * A template's app served by the framework's own `app.listen` instead of the runtime's server
 * (`Bun.serve`, `Deno.serve`): its HTTP transport (node:http, which Bun and Deno provide) and its
 * stdio transport, for a user who moves a Node server to another runtime as it is. Written into a
 * template's scratch copy as `listen-main.ts`, run with `http` or `stdio`. It prints to stderr:
 * on stdio, stdout is the protocol channel.
 */
export const LISTEN_MAIN = `
import { createApp } from './src/app.ts';

const app = createApp();
const transport = process.argv[2] === 'stdio' ? 'stdio' : 'http';
const listening = await app.listen(transport === 'stdio' ? { transport } : { transport, port: 0 });
console.error(transport === 'stdio' ? 'serving on stdio' : \`app.listen on \${listening.url!.href}\`);
process.on('SIGTERM', () => void app.close().finally(() => process.exit(0)));
`;

/** How to run `listen-main.ts` on a runtime: the command and the arguments before `http`/`stdio`. */
export interface ListenRun {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
}

/** `app.listen({ transport: 'http' })` on the runtime: the target scenario in both eras, and a bad Host refused. */
export async function checkListenHttp(run: ListenRun): Promise<void> {
  const server = await startTarget({
    command: run.command,
    args: [...run.args, 'http'],
    cwd: run.cwd,
    env: run.env,
    ready: /app\.listen on (http:\/\/127\.0\.0\.1:\d+)\/mcp/
  });
  try {
    for (const era of ['2026-07-28', '2025-11-25'] as const) await runTargetScenario({ url: server.url, era });
    await expectBadHostRefused(server.url);
  } finally {
    await server.stop();
  }
}

/**
 * `app.listen({ transport: 'stdio' })` on the runtime: an SDK client spawns it, lists the tools, calls one with
 * progress. The progress is checked as it came off the pipe, in order before the result: the SDK client hands a
 * notification to its handler a microtask later but a response at once, so when the last progress and the result
 * arrive in one read (a loaded machine) the client has dropped the progress handler before that notification reaches
 * it. That is the client's to fix; the server's part is what it wrote, and in which order.
 */
export async function checkListenStdio(run: ListenRun): Promise<void> {
  const client = new Client({ name: 'target-stdio', version: '1.0.0' });
  client.onerror = () => undefined;
  const transport = new StdioClientTransport({
    command: run.command,
    args: [...run.args, 'stdio'],
    cwd: run.cwd,
    env: { ...(process.env as Record<string, string>), ...(run.env as Record<string, string> | undefined) },
    stderr: 'pipe'
  });
  await client.connect(transport);
  // What the pipe delivered, in order: the protocol's own handler still gets every message.
  const seen: string[] = [];
  const deliver = transport.onmessage!;
  transport.onmessage = (message) => {
    const raw = message as { method?: string; params?: { progress?: number }; result?: unknown };
    if (raw.method === 'notifications/progress') seen.push(`progress ${raw.params?.progress}`);
    else if (raw.result !== undefined) seen.push('result');
    deliver(message);
  };
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TEMPLATE_TOOLS]);
    seen.length = 0;
    const result = await client.callTool({ name: 'notes.import', arguments: { texts: ['a', 'b', 'c'] } }, { onprogress: () => undefined });
    expect(result.content).toEqual([{ type: 'text', text: 'Imported 3 notes.' }]);
    expect(seen).toEqual(['progress 1', 'progress 2', 'progress 3', 'result']);
  } finally {
    await client.close();
  }
}
