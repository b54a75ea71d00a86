import 'reflect-metadata';
import { createApp } from './app';

// CommonJS has no top-level await: the bootstrap lives in an async main().
async function main(): Promise<void> {
  const app = createApp();
  const { url } = await app.listen({ transport: 'http', port: Number(process.env.PORT ?? 3000) });
  // stderr, not stdout: on the stdio transport stdout is the protocol channel.
  process.stderr.write(`mcpfusion-starter listening on ${url?.href}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`mcpfusion-starter failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
