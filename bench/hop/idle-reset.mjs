// Calls after an idle pause: ROUNDS times, 32 calls at once (5 each), then PAUSE_MS idle; prints how many answered as
// errors. Past the upstream's keep-alive timeout (Node's default 5 s) its idle sockets close as the next burst reuses
// them: a gateway that does not send such a request again fails the call ("unavailable ... ECONNRESET") and reconnects.
// usage: node bench/hop/idle-reset.mjs <gateway url> [PAUSE_MS=5000] [ROUNDS=8]     (tool up.echo, as bench/hop/run.sh serves it)
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
const [url, pauseMs = '5000', rounds = '8'] = process.argv.slice(2);
const c = new Client({ name: 'idle-reset', version: '1' });
await c.connect(new StreamableHTTPClientTransport(new URL(url)));
let failed = 0;
let total = 0;
for (let r = 0; r < Number(rounds); r++) {
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      for (let i = 0; i < 5; i++) {
        const res = await c.callTool({ name: 'up.echo', arguments: { text: 'x' } });
        total++;
        if (res.isError) failed++;
      }
    })
  );
  await new Promise((resolve) => setTimeout(resolve, Number(pauseMs)));
}
console.log(`failed ${failed} of ${total}`);
await c.close();
