import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { FusionApp } from '../../src';
import { createConformanceApp } from '../conformance/server';

type ExtTasksClient = typeof import('@modelcontextprotocol/ext-tasks/client', { with: { 'resolution-mode': 'import' } });
// ESM only: jest maps and transpiles it (jest.config.js); tests only, the framework does not depend on it.
const { createTaskSessionFromClient, resultFromTaskOutcome } = require('@modelcontextprotocol/ext-tasks/client') as ExtTasksClient;

/**
 * Under jest, a body parsed by undici's `Response.json()` is made of the main realm's objects, which
 * the ext-tasks schemas (running in the test's realm) do not take for plain JSON: JSON bodies are
 * parsed here instead. Streams (SSE) are passed through untouched.
 */
const inRealmJson: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  if (!(res.headers.get('content-type') ?? '').includes('application/json')) return res;
  const text = await res.text();
  const copy = new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
  Object.defineProperty(copy, 'json', { value: async () => JSON.parse(text) as unknown });
  return copy;
};

const FRAMING = {
  protocolVersion: '2026-07-28',
  clientInfo: { name: 'ext-tasks-client', version: '1' },
  clientCapabilities: { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } }
};

/**
 * The tasks extension's own requester client (`@modelcontextprotocol/ext-tasks`, written by the
 * extension's maintainers, not here) drives the framework's task tools over real HTTP. Its 2026
 * path needs a raw JSON-RPC dispatch (the SDK client has no public raw request path): a POST with
 * the routing headers, answered as JSON or SSE.
 */
describe('the ext-tasks requester client against the conformance server', () => {
  let app: FusionApp;
  let url: URL;
  let client: Client;
  beforeAll(async () => {
    app = createConformanceApp();
    ({ url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL });
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    client = new Client({ name: 'ext-tasks-client', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(url, { fetch: inRealmJson }));
  });
  afterEach(async () => {
    await client.close();
  });

  /** One JSON-RPC request over HTTP, its answer as the port's `{ kind: 'result' | 'error' }`. */
  const rawDispatch = async (request: unknown) => {
    const answer = (await post(request)) as { result?: unknown; error?: unknown };
    return ('error' in answer ? { kind: 'error', error: answer.error } : { kind: 'result', result: answer.result }) as never;
  };

  let nextId = 1;
  const post = async (request: unknown): Promise<unknown> => {
    // The port hands over the method and params; the JSON-RPC framing is the transport's.
    const message = { jsonrpc: '2.0', id: nextId++, ...(request as { method: string; params?: Record<string, unknown> }) };
    const name = message.params?.taskId ?? message.params?.name ?? message.params?.uri;
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': message.method,
        ...(typeof name === 'string' ? { 'mcp-name': name } : {})
      },
      body: JSON.stringify(message)
    });
    const text = await res.text();
    if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
      const data = text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>);
      return data.find((m) => 'result' in m || 'error' in m);
    }
    return JSON.parse(text) as unknown;
  };

  const session = () => createTaskSessionFromClient(client as never, { endpointId: 'conformance', rawDispatch, v2RequestFraming: FRAMING });

  it('a task-backed call settles to the tool result (slow_compute, one second)', async () => {
    const tasks = session();
    try {
      const execution = await tasks.callTool('slow_compute', { seconds: 1, label: 'ext-client' });
      const { outcome, lastTask } = await execution.settle();
      expect(outcome.status).toBe('completed');
      expect(lastTask?.taskId).toEqual(expect.any(String));
      const result = resultFromTaskOutcome(outcome) as { content: Array<{ text: string }> };
      expect(result.content[0].text).toBe('Computed ext-client after 1s');
    } finally {
      await tasks.close();
    }
  });

  it('an immediate result needs no task (slow_compute, zero seconds)', async () => {
    const tasks = session();
    try {
      const { outcome } = await (await tasks.callTool('slow_compute', { seconds: 0 })).settle();
      expect((resultFromTaskOutcome(outcome) as { content: Array<{ text: string }> }).content[0].text).toBe('Computed result after 0s');
    } finally {
      await tasks.close();
    }
  });

  it('a protocol error fails the task; a tool error completes it with isError', async () => {
    const tasks = session();
    try {
      const failed = await (await tasks.callTool('protocol_error_job', {})).settle();
      expect(failed.outcome.status).toBe('failed');
      const toolError = await (await tasks.callTool('failing_job', {})).settle();
      expect(toolError.outcome.status).toBe('completed');
      expect((resultFromTaskOutcome(toolError.outcome) as { isError?: boolean }).isError).toBe(true);
    } finally {
      await tasks.close();
    }
  });

  it('cancel through the client settles the task as cancelled', async () => {
    const tasks = session();
    try {
      const execution = await tasks.callTool('slow_compute', { seconds: 60, label: 'cancelled' });
      await execution.cancel();
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe('cancelled');
    } finally {
      await tasks.close();
    }
  });
});
