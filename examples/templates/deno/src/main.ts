import { createApp } from './app.ts';
import { serve } from './server.ts';

const app = createApp();
const allowedHosts = Deno.env
  .get('ALLOWED_HOSTS')
  ?.split(',')
  .map((name) => name.trim())
  .filter((name) => name !== '');
const { url, stop } = serve(app, {
  host: Deno.env.get('HOST') ?? '127.0.0.1',
  port: Number(Deno.env.get('PORT') ?? 3000),
  // HOST=0.0.0.0 (a container) needs ALLOWED_HOSTS: the Host names clients use.
  ...(allowedHosts?.length ? { allowedHosts } : {})
});
// stderr, not stdout: the same habit as on the stdio transport, where stdout is the protocol channel.
console.error(`mcpfusion-deno listening on ${url.href}`);

// A clean stop: new calls refused, calls in flight aborted, sessions closed, then the server stops.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  Deno.addSignalListener(signal, () => {
    if (stopping) return;
    stopping = true;
    void app
      .close()
      .then(stop)
      .finally(() => Deno.exit(0));
  });
}
