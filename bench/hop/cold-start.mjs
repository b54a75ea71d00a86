// What the gateway's cold start is made of, and its floor. The peer bench's gateway rows time one script from its
// start to the gateway's port answering: the upstream's own start, the script's wait for it, a Node run to look up the
// bin, then the gateway's start. Only the last part is the gateway's. This measures that part against measuring
// sticks started the same way, in front of one running upstream (bare-sdk.mjs), interleaved, the order rotated:
//   upstream  bare-sdk.mjs itself, from spawn to listening (the "server behind it" of issue 43's goal)
//   null      a Node that only opens its port (`net.createServer().listen()`): no gateway can listen sooner
//   raw       raw-proxy.mjs (a proxy that parses nothing)
//   gateway   `mcpfusion serve --url <upstream> --namespace up` from this checkout
// and for the upstream, raw and the gateway also the first answer: spawn to a client's connect plus tools/list done (the
// gateway listens first and loads the framework after, so its first answer comes well after its port).
//   usage: node bench/hop/cold-start.mjs [ROUNDS]     (Node from PATH; `npm run compile` first)
import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const rounds = Number(process.argv[2] ?? 9);

const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
const answers = (port) =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long a start may take before the run gives up on it (ms). */
const START_LIMIT_MS = 30_000;

/** Spawns Node with `args(port)` (PORT set too), waits for the port as the peer bench does (a connect every 10 ms). */
async function start(args, env = {}) {
  const port = await freePort();
  const t0 = performance.now();
  const argv = args(port);
  const child = spawn(process.execPath, argv, { cwd: root, env: { ...process.env, ...env, PORT: String(port) }, stdio: 'ignore' });
  let exited = false;
  child.once('exit', () => (exited = true));
  while (!(await answers(port))) {
    const late = performance.now() - t0 > START_LIMIT_MS;
    if (exited || late) {
      child.kill('SIGKILL');
      throw new Error(`${argv.join(' ')} ${exited ? 'exited before listening' : `was not listening after ${START_LIMIT_MS} ms`}`);
    }
    await pause(10);
  }
  return { child, port, t0, listenMs: performance.now() - t0 };
}

/** Ms from the spawn to a client connected and its tools listed. */
async function firstAnswer(run, prefix) {
  const client = new Client({ name: 'cold-start', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${run.port}/mcp`)));
  const { tools } = await client.listTools();
  if (!tools.some((tool) => tool.name === `${prefix}echo`)) throw new Error(`no ${prefix}echo at port ${run.port}`);
  const ms = performance.now() - run.t0;
  await client.close();
  return ms;
}

async function stop(child) {
  if (child.exitCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

const upstream = await start(() => [join(here, 'bare-sdk.mjs')]);
const upstreamUrl = `http://127.0.0.1:${upstream.port}/mcp`;
const sticks = {
  upstream: { args: () => [join(here, 'bare-sdk.mjs')], prefix: '' },
  null: { args: () => ['-e', 'require("node:net").createServer().listen(Number(process.env.PORT), "127.0.0.1")'] },
  raw: { args: () => [join(here, 'raw-proxy.mjs')], env: { UP: upstreamUrl }, prefix: '' },
  gateway: {
    args: (port) => [
      join(root, 'packages/cli/bin/mcpfusion.js'),
      'serve',
      '--url',
      upstreamUrl,
      '--port',
      String(port),
      '--namespace',
      'up'
    ],
    prefix: 'up.'
  }
};
const names = Object.keys(sticks);
const listen = Object.fromEntries(names.map((name) => [name, []]));
const first = { upstream: [], raw: [], gateway: [] };
try {
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length];
      const stick = sticks[name];
      const run = await start(stick.args, stick.env);
      try {
        listen[name].push(run.listenMs);
        if (name in first) first[name].push(await firstAnswer(run, stick.prefix));
      } finally {
        await stop(run.child);
      }
      await pause(200);
    }
  }
} finally {
  await stop(upstream.child);
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const floor = median(listen.null);
console.log(`cold start, ${rounds} rounds, Node ${process.version}, medians (ms, spawn to listening; first answer: connect + tools/list)`);
for (const name of names) {
  const ms = median(listen[name]);
  const above = name === 'null' ? '' : `  ${ms - floor >= 0 ? '+' : ''}${(ms - floor).toFixed(0)} over null`;
  const answer = name in first ? `  first answer ${median(first[name]).toFixed(0)}` : '';
  console.log(`${name.padEnd(9)} listening ${ms.toFixed(0).padStart(5)}${above}${answer}`);
}
