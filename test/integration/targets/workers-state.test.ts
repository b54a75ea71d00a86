import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { RawExchange, UpstreamRpcError } from '../../../src/wire/raw-exchange';
import { connectTargetClient } from '../../helpers/target-scenario';
import { modernRequest, postRaw, responseOf } from '../../helpers/raw-http';
import { ROOT, removeScratch, scratchTemplate, type TargetServer } from '../../helpers/template-project';
import { WRANGLER_INSTALL, WRANGLER_JS, linkWrangler, startWranglerDev } from '../../helpers/wrangler-dev';

/**
 * State on Cloudflare Workers, under `wrangler dev`: the workers template (its src/index.ts, its
 * wrangler.jsonc with the FusionStateObject binding) with its src/app.ts replaced by
 * test/fixtures/workers-state/app.ts, which serves an exactly-once refund and a task. Single-use
 * states, exactly-once rounds and task records live in the Durable Object (workerd runs it
 * locally, SQLite-backed). A real 2026-07-28 SDK client:
 * - sends the confirming round of the exactly-once refund twice (the first answer lost, the
 *   round re-issued with a new id, as after a broken stream) and sees the refund run once, both
 *   answers the same; the state sent again with other answers is refused;
 * - creates a task (the tasks extension, over the client's own transport), reads it working, opens
 *   its gate with another call, and reads it completed with its result (the run went on after the
 *   answer, kept alive by `ctx.waitUntil`); an unknown task id is -32602;
 * - and the object refuses a malformed request with a message naming the problem (sent by a
 *   probe route the suite adds in front of the template's Worker), and keeps serving.
 */
const describeWithWrangler = existsSync(WRANGLER_JS) ? describe : describe.skip;
const skipped = existsSync(WRANGLER_JS)
  ? ''
  : ` (skipped: wrangler is not installed at ${WRANGLER_JS}; install it with: ${WRANGLER_INSTALL})`;

const TASKS = 'io.modelcontextprotocol/tasks';
const FIXTURE = join(ROOT, 'test', 'fixtures', 'workers-state');

/** The suite's entry: a route to the object for the refusal check, the template's Worker for the rest. */
const PROBE = `import worker, { FusionStateObject, type Env } from './index';
export { FusionStateObject };
export default {
  async fetch(request: Request, env: Env, ctx: { waitUntil(work: Promise<unknown>): void }): Promise<Response> {
    if (new URL(request.url).pathname === '/state-probe' && env.STATE) {
      const stub = env.STATE.get(env.STATE.idFromName('mcpfusion'));
      return stub.fetch('https://fusion-state.internal/', { method: request.method, ...(request.method === 'POST' ? { body: await request.text() } : {}) });
    }
    return worker.fetch(request, env, ctx);
  }
};
`;

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((block) => block.text ?? '').join('\n');
}

describeWithWrangler(`Workers state in a Durable Object (FusionStateObject, wrangler dev)${skipped}`, () => {
  let dir: string;
  let server: TargetServer;

  beforeAll(async () => {
    dir = scratchTemplate(join(ROOT, 'examples', 'templates', 'workers'));
    linkWrangler(dir);
    copyFileSync(join(FIXTURE, 'app.ts'), join(dir, 'src', 'app.ts'));
    copyFileSync(join(FIXTURE, 'state-tools.ts'), join(dir, 'src', 'state-tools.ts'));
    writeFileSync(join(dir, 'src', 'probe.ts'), PROBE);
    const config = join(dir, 'wrangler.jsonc');
    writeFileSync(config, readFileSync(config, 'utf8').replace('"main": "dist/index.js"', '"main": "dist/probe.js"'));
    server = await startWranglerDev(dir, { STATE_KEY: randomBytes(32).toString('base64url'), ENVIRONMENT: 'development' });
  }, 180_000);

  afterAll(async () => {
    if (process.env.DEBUG_WRANGLER) process.stderr.write(server?.output() ?? '');
    await server?.stop();
    if (dir) removeScratch(dir);
  }, 60_000);

  test('an exactly-once round sent twice (the first answer lost) runs once; both answers are the same; other answers are refused', async () => {
    const firstAnswers: string[] = [];
    let confirming: { requestState: string; key: string } | undefined;
    // The client's own requests, except that the confirming round goes out twice: once with an id
    // of its own whose answer the client never sees (a broken stream), then as the client sent it.
    const lossy: typeof fetch = async (input, init) => {
      const body = typeof init?.body === 'string' ? init.body : undefined;
      const message = body ? (JSON.parse(body) as { id?: unknown; method?: string; params?: Record<string, unknown> }) : undefined;
      if (message?.method === 'tools/call' && message.params?.inputResponses !== undefined) {
        const responses = message.params.inputResponses as Record<string, unknown>;
        confirming = { requestState: String(message.params.requestState), key: Object.keys(responses)[0] };
        const lost = await fetch(input, { ...init, body: JSON.stringify({ ...message, id: `lost-${String(message.id)}` }) });
        firstAnswers.push(await lost.text());
      }
      return fetch(input, init);
    };
    const client = await connectTargetClient(server.url, '2026-07-28', { fetch: lossy });
    try {
      const result = await client.callTool({ name: 'ledger.refund', arguments: { id: 7 } });
      expect(textOf(result)).toBe('Refunded invoice 7 (run 1)');
      expect(firstAnswers).toHaveLength(1);
      expect(firstAnswers[0]).toContain('Refunded invoice 7 (run 1)');
      expect(textOf(await client.callTool({ name: 'ledger.runs', arguments: { id: 7 } }))).toBe('1');
    } finally {
      await client.close();
    }
    // The same state with other answers (a "no" after the "yes"): refused, nothing runs.
    const { body, headers } = modernRequest('tools/call', {
      name: 'ledger.refund',
      arguments: { id: 7 },
      requestState: confirming!.requestState,
      inputResponses: { [confirming!.key]: { action: 'accept', content: { confirm: false } } }
    });
    const refused = responseOf(await postRaw(server.url, body, headers));
    expect(refused.error).toMatchObject({ code: -32602, message: expect.stringContaining('already used') });
    const client2 = await connectTargetClient(server.url, '2026-07-28');
    try {
      expect(textOf(await client2.callTool({ name: 'ledger.runs', arguments: { id: 7 } }))).toBe('1');
    } finally {
      await client2.close();
    }
  }, 120_000);

  test('a task is created, read working, and read completed with its result once its work ends after the answer', async () => {
    const client = new Client(
      { name: 'mcpfusion-target-check', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } }
    );
    const transport = new StreamableHTTPClientTransport(server.url);
    await client.connect(transport);
    const raw = new RawExchange(transport, false);
    const onmessage = transport.onmessage;
    transport.onmessage = (message) => {
      if (!raw.takes(message)) onmessage?.(message);
    };
    const post = (method: string, params: Record<string, unknown>) =>
      raw.request(method, {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
          'io.modelcontextprotocol/clientInfo': { name: 'mcpfusion-target-check', version: '1.0.0' }
        }
      });
    try {
      expect(client.getServerCapabilities()?.extensions).toHaveProperty([TASKS]);
      const created = await post('tools/call', { name: 'jobs.run', arguments: { name: 'nightly' } });
      expect(created).toMatchObject({ resultType: 'task', status: 'working' });
      const taskId = String(created.taskId);
      expect(await post('tasks/get', { taskId })).toMatchObject({ taskId, status: 'working' });
      expect(textOf(await client.callTool({ name: 'jobs.release', arguments: { name: 'nightly' } }))).toBe('released nightly');
      let task: Record<string, unknown> = {};
      // Read until the run has recorded its outcome (each read waits for the one before; bounded).
      for (let read = 0; read < 2_000; read++) {
        task = await post('tasks/get', { taskId });
        if (task.status !== 'working') break;
      }
      expect(task).toMatchObject({ taskId, status: 'completed' });
      expect(textOf(task.result)).toBe('job nightly done');
      const unknown = await post('tasks/get', { taskId: 'no-such-task' }).catch((error: unknown) => error);
      expect(unknown).toBeInstanceOf(UpstreamRpcError);
      expect((unknown as UpstreamRpcError).code).toBe(-32602);
    } finally {
      await client.close();
    }
  }, 120_000);

  test('the object refuses a malformed request, naming the problem, and keeps serving', async () => {
    const probe = new URL('/state-probe', server.url);
    const send = async (init: RequestInit) => {
      const response = await fetch(probe, init);
      return { status: response.status, body: (await response.json()) as { error?: string; value?: unknown } };
    };
    expect(await send({ method: 'POST', body: 'not json' })).toEqual({
      status: 400,
      body: { error: 'bad state request: the body is not JSON' }
    });
    expect(await send({ method: 'POST', body: '{"op":"claim","id":"r"}' })).toEqual({
      status: 400,
      body: { error: 'bad state request: "fingerprint" must be a non-empty string' }
    });
    expect((await send({ method: 'GET' })).status).toBe(405);
    expect(await send({ method: 'POST', body: '{"op":"consume","id":"probe","ttlMs":60000}' })).toEqual({
      status: 200,
      body: { value: true }
    });
    expect(await send({ method: 'POST', body: '{"op":"consume","id":"probe","ttlMs":60000}' })).toEqual({
      status: 200,
      body: { value: false }
    });
  }, 60_000);
});
