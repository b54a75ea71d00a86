import 'reflect-metadata';
import { createApp } from './app';

// CommonJS has no top-level await: the bootstrap lives in an async main().
async function main(): Promise<void> {
  const app = createApp();
  // HOST=0.0.0.0 (a container) needs ALLOWED_HOSTS: the Host names clients use (DNS rebinding protection).
  const allowedHosts = process.env.ALLOWED_HOSTS?.split(',')
    .map((host) => host.trim())
    .filter((host) => host !== '');
  const { url } = await app.listen({
    transport: 'http',
    host: process.env.HOST ?? '127.0.0.1',
    port: Number(process.env.PORT ?? 3000),
    ...(allowedHosts?.length ? { allowedHosts } : {})
  });
  // stderr, not stdout: on the stdio transport stdout is the protocol channel.
  process.stderr.write(`mcpfusion-starter listening on ${url?.href}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`mcpfusion-starter failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
