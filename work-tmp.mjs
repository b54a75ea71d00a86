import { spawn } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
async function run(which, era) {
  const child = spawn(process.execPath, ['/work/main/build/bench/http-server.js', which], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((r) => child.stdout.once('data', (d) => r(Number(String(d).trim()))));
  const client = new Client({ name: 'b', version: '1' }, era === '2026' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : undefined);
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  const lat = [];
  for (let i = 0; i < 300; i++) { const t = performance.now(); let p = 0; await client.callTool({ name: 'double.stream', arguments: { n: 1 } }, { onprogress: () => p++ }); lat.push(performance.now() - t); }
  lat.sort((a, b) => a - b);
  await client.close(); child.kill('SIGTERM'); await new Promise((r) => child.once('exit', r));
  return lat[150].toFixed(2);
}
for (const era of ['2025', '2026']) for (let r = 0; r < 2; r++) console.log(era, 'sdk', await run('sdk', era), 'fusion', await run('fusion', era));
