import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  McpServer,
  createMcpHandler,
  fromJsonSchema,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  originValidationResponse
} from '@modelcontextprotocol/server';
import { IsString, MaxLength } from 'class-validator';

/**
 * What a `tools/call` keeps alive while it is in flight (`node build/bench/runtimes/held-calls.js`):
 * 32 calls of an `echo` tool held open in process (the fetch handler called directly, the tool
 * awaiting a promise this script resolves), full collections forced before and while they are held,
 * and the heap's growth divided by 32. The bare SDK v2's `createMcpHandler` beside the framework's
 * `createHttpHandler().fetch` (and, with `BENCH_BASE=<a build directory>`, that build's framework),
 * each in a process of its own, on Bun (`bun:jsc`'s `heapSize()` and `heapStats().objectTypeCounts`;
 * `HELD_RUNTIME=node` for Node, bytes only). Deterministic: no timing is read, so machine load does
 * not move it. What it answers: the collector's pauses with many calls in flight grow with what each
 * call keeps (docs/performance.md, "Bun with 32 in flight").
 *
 * `held-calls.js <sdk|fusion|base=DIR>` runs one contender and prints one line of JSON. Knobs:
 * `HELD_CALLS` (32; more makes the bytes steadier: the heap grows by whole blocks), `HELD_REPEATS`
 * (5), `HELD_WARMUP` (3,000 calls), `HELD_VERBOSE=1` (every object type), `HELD_SNAPSHOT`.
 */

const HELD = Number(process.env.HELD_CALLS ?? 32);
const REPEATS = Number(process.env.HELD_REPEATS ?? 5);
const WARMUP = Number(process.env.HELD_WARMUP ?? 3000);
const BIN = resolve(__dirname, '../../../scripts/runtimes/node_modules/.bin');

type FetchHandler = (request: Request) => Promise<Response>;
type Counts = Record<string, number>;

interface Jsc {
  heapSize(): number;
  heapStats(): { objectTypeCounts: Counts };
}
interface BunGlobal {
  gc(force: boolean): void;
}

const bun = (globalThis as { Bun?: BunGlobal }).Bun;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const jsc: Jsc | undefined = bun ? (require('bun:jsc') as Jsc) : undefined;

function collect(): void {
  for (let i = 0; i < 2; i++) {
    if (bun) bun.gc(true);
    else (globalThis as { gc?: () => void }).gc?.();
  }
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const heapBytes = (): number => (jsc ? jsc.heapSize() : (require('node:v8') as typeof import('node:v8')).getHeapStatistics().used_heap_size);
const counts = (): Counts => (jsc ? jsc.heapStats().objectTypeCounts : {});

/** The gate every held call's tool awaits; `entered` counts tool entries. */
const gate = { holding: false, entered: 0, open: Promise.resolve(), release: () => undefined as void };

async function heldTool(text: string): Promise<string> {
  gate.entered++;
  if (gate.holding) await gate.open;
  return text;
}

const ECHO = fromJsonSchema<{ text: string }>({
  type: 'object',
  properties: { text: { type: 'string', maxLength: 1000 } },
  required: ['text'],
  additionalProperties: false
});

function sdkFetch(): FetchHandler {
  const mcp = createMcpHandler(() => {
    const server = new McpServer({ name: 'bare-echo', version: '1.0.0' });
    server.registerTool('echo', { description: 'Echoes text', inputSchema: ECHO }, async ({ text }) => ({
      content: [{ type: 'text', text: await heldTool(text) }]
    }));
    return server;
  });
  const hosts = localhostAllowedHostnames();
  return async (request) => hostHeaderValidationResponse(request, hosts) ?? originValidationResponse(request, hosts) ?? mcp.fetch(request);
}

/**
 * The framework's contender from a build's `src` (this build's or `BENCH_BASE`'s): its decorators
 * applied by hand, so a class is described to the build that serves it.
 */
function fusionFetch(src: string): FetchHandler {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fw = require(src) as typeof import('../../src');
  class EchoInput {
    text!: string;
  }
  Reflect.decorate([IsString(), MaxLength(1000), Reflect.metadata('design:type', String)], EchoInput.prototype, 'text', undefined);
  class HeldTools {
    echo(input: EchoInput): Promise<string> {
      return heldTool(input.text);
    }
  }
  Reflect.decorate(
    [
      fw.Action('echo', { description: 'Echoes text' }),
      (target: object, key: string | symbol) => fw.Input()(target, key, 0),
      Reflect.metadata('design:type', Function),
      Reflect.metadata('design:paramtypes', [EchoInput]),
      Reflect.metadata('design:returntype', Promise)
    ],
    HeldTools.prototype,
    'echo',
    Object.getOwnPropertyDescriptor(HeldTools.prototype, 'echo')
  );
  const Tools = Reflect.decorate([fw.ToolProvider() as ClassDecorator], HeldTools) as typeof HeldTools;
  // Every held call runs (the queue's default is 64 at once; the rest would wait in line, never reaching the tool).
  const concurrency = { maxActive: Math.max(64, HELD) };
  const handler = fw.FusionApp.create({ name: 'echo', version: '1.0.0', tools: [Tools], logger: () => undefined, concurrency }).createHttpHandler();
  return (request) => handler.fetch(request);
}

/** One `tools/call` request as a 2026-07-28 SDK client sends it, recorded once and replayed. */
async function recordCall(fetchHandler: FetchHandler): Promise<() => Request> {
  let recorded: { url: string; headers: [string, string][]; body: string } | undefined;
  const client = new Client({ name: 'held', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1:39999/mcp'), {
      fetch: async (url, init) => {
        const headers = new Headers(init?.headers);
        headers.set('host', '127.0.0.1:39999');
        const request = new Request(url, { ...init, headers });
        const body = typeof init?.body === 'string' ? init.body : undefined;
        if (body?.includes('"tools/call"')) recorded = { url: String(url), headers: [...request.headers], body };
        return fetchHandler(request);
      }
    })
  );
  await client.callTool({ name: 'echo', arguments: { text: 'hello from the runtime bench' } });
  await client.close();
  const call = recorded!;
  const headers: [string, string][] = [...call.headers, ['content-length', String(Buffer.byteLength(call.body))]];
  return () => new Request(call.url, { method: 'POST', headers, body: call.body });
}

async function holdOnce(fetchHandler: FetchHandler, make: () => Request, held = HELD, snapshot?: string): Promise<{ bytes: number; counts: Counts }> {
  collect();
  const before = heapBytes();
  const c0 = counts();
  gate.holding = true;
  gate.entered = 0;
  gate.open = new Promise<void>((open) => (gate.release = open));
  const pending: Promise<Response>[] = [];
  for (let i = 0; i < held; i++) pending.push(fetchHandler(make()));
  for (let turns = 0; gate.entered < held; turns++) {
    if (turns > 100_000) throw new Error(`only ${gate.entered} of ${held} calls reached the tool`);
    await new Promise((r) => setImmediate(r));
  }
  collect();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (snapshot) (require('node:v8') as typeof import('node:v8')).writeHeapSnapshot(snapshot);
  const bytes = (heapBytes() - before) / HELD;
  const c1 = counts();
  const perCall: Counts = {};
  for (const k of new Set([...Object.keys(c0), ...Object.keys(c1)])) {
    const d = ((c1[k] ?? 0) - (c0[k] ?? 0)) / HELD;
    if (Math.abs(d) >= 0.5) perCall[k] = d;
  }
  gate.holding = false;
  gate.release();
  for (const response of await Promise.all(pending)) {
    const text = await response.text();
    if (!text.includes('hello from the runtime bench')) throw new Error(`unexpected answer: ${text.slice(0, 300)}`);
  }
  return { bytes, counts: perCall };
}

async function contender(which: string): Promise<void> {
  const fetchHandler =
    which === 'sdk' ? sdkFetch() : fusionFetch(which.startsWith('base=') ? join(resolve(which.slice(5)), 'src') : join(__dirname, '../../src'));
  const make = await recordCall(fetchHandler);
  for (let i = 0; i < WARMUP; i++) await (await fetchHandler(make())).text();
  // The first hold after the warm-up reads low on Bun (a collection frees what the warm-up left): not counted.
  await holdOnce(fetchHandler, make);
  const runs: { bytes: number; counts: Counts }[] = [];
  for (let i = 0; i < REPEATS; i++) runs.push(await holdOnce(fetchHandler, make));
  // `HELD_SNAPSHOT=<prefix>` (Node): heap snapshots with none and with 32 held, to attribute what a call keeps.
  const snapshot = process.env.HELD_SNAPSHOT;
  if (snapshot && !bun) {
    await holdOnce(fetchHandler, make, 0, `${snapshot}-${which.split('=')[0]}-0.heapsnapshot`);
    await holdOnce(fetchHandler, make, HELD, `${snapshot}-${which.split('=')[0]}-${HELD}.heapsnapshot`);
  }
  const sorted = runs.map((r) => Math.round(r.bytes)).sort((a, b) => a - b);
  // The counts of the run with the median bytes: counts move little between runs.
  const mid = runs.find((r) => Math.round(r.bytes) === sorted[Math.floor(sorted.length / 2)])!;
  process.stdout.write(JSON.stringify({ which, bytes: sorted, counts: mid.counts }) + '\n');
}

const KEYS = ['JSLexicalEnvironment', 'Function', 'Object', 'Promise', 'Array', 'AbortSignal', 'AbortController'];

function drive(): void {
  const runtime = process.env.HELD_RUNTIME ?? 'bun';
  const command = runtime === 'bun' ? join(BIN, 'bun') : process.execPath;
  const pre = runtime === 'bun' ? [] : ['--expose-gc'];
  const whichs = ['sdk', 'fusion', ...(process.env.BENCH_BASE ? [`base=${process.env.BENCH_BASE}`] : [])];
  const results = whichs.map((which) => {
    const run = spawnSync(command, [...pre, __filename, which], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (run.status !== 0) throw new Error(`${which} exited ${run.status}`);
    return JSON.parse(run.stdout.trim().split('\n').pop()!) as { which: string; bytes: number[]; counts: Counts };
  });
  console.log(`held calls: ${HELD} tools/call in flight, ${runtime}, ${REPEATS} repeats after ${WARMUP} calls; per held call`);
  for (const r of results) {
    const label = r.which.startsWith('base=') ? 'base' : r.which;
    const row = KEYS.filter((k) => r.counts[k] !== undefined).map((k) => `${k} ${r.counts[k]!.toFixed(1)}`);
    console.log(`${label.padEnd(7)} bytes ${r.bytes.join(' ')} (median ${r.bytes[Math.floor(r.bytes.length / 2)]})  ${row.join(', ')}`);
  }
  if (process.env.HELD_VERBOSE) for (const r of results) console.log(r.which, JSON.stringify(Object.entries(r.counts).sort((a, b) => b[1] - a[1])));
}

if (process.argv[2]) void contender(process.argv[2]);
else drive();
