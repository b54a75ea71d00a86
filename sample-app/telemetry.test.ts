import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { telemetryFromEnv } from './telemetry';
import { eachDatabase, tempDb, usePostgres, type PostgresTestDatabase, type TempDb } from './test-helpers';

/**
 * The sample app's telemetry as an operator runs it: the compiled server as a child process,
 * exporting over OTLP/HTTP to a receiver this test runs on 127.0.0.1 (both protocols of the
 * standard variable, over HTTP and over stdio), and flushing what it holds when it stops: on
 * SQLite, and on PostgreSQL (DATABASE_URL), whose pool the server closes before that flush.
 */

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const PARENT_ID = 'b7ad6b7169203331';
const MAIN = `${__dirname}/../build/sample-app/main.js`;

interface Export {
  readonly path: string;
  readonly contentType: string;
  readonly body: Buffer;
}

/** An OTLP/HTTP receiver: keeps every export, and says when one matching a test arrives. */
class Receiver {
  readonly exports: Export[] = [];
  private waiters: Array<{ test: (e: Export) => boolean; resolve: () => void }> = [];
  private readonly server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = { path: req.url ?? '', contentType: String(req.headers['content-type']), body: Buffer.concat(chunks) };
      this.exports.push(received);
      this.waiters = this.waiters.filter((w) => (w.test(received) ? (w.resolve(), false) : true));
      res.writeHead(200, { 'content-type': received.contentType }).end(received.contentType.includes('json') ? '{}' : '');
    });
  });

  async start(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves once an export passes `test` (bounded: the test fails rather than hangs). */
  received(test: (e: Export) => boolean, what: string): Promise<void> {
    if (this.exports.some(test)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} arrived; got ${this.exports.map((e) => e.path).join(', ')}`)), 15_000);
      this.waiters.push({ test, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The spans of an OTLP/JSON trace export. */
function jsonSpans(
  e: Export
): Array<{ name: string; traceId: string; parentSpanId?: string; attributes: Array<{ key: string; value: { stringValue?: string } }> }> {
  if (e.path !== '/v1/traces' || !e.contentType.includes('json')) return [];
  const body = JSON.parse(e.body.toString()) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: never[] }> }> };
  return body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
}

function serviceNameOf(e: Export): string | undefined {
  const body = JSON.parse(e.body.toString()) as {
    resourceSpans: Array<{ resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> } }>;
  };
  return body.resourceSpans[0]?.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue;
}

/** The database a child server runs on: its SQLite file, and on PostgreSQL the database DATABASE_URL names (it wins over the file). */
interface ChildDatabase {
  readonly file: TempDb;
  readonly postgres?: PostgresTestDatabase;
}

function otelEnv(endpoint: string, db: ChildDatabase, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    BILLING_DB: db.file.path,
    FUSION_STATE_KEY: 'telemetry-test-state-key-of-32-bytes-or-more'
  };
  delete env.DATABASE_URL;
  if (db.postgres) env.DATABASE_URL = db.postgres.url;
  for (const key of Object.keys(env)) if (key.startsWith('OTEL_')) delete env[key];
  return { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, ...extra };
}

eachDatabase('the sample app exports its telemetry over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set', (database) => {
  const postgres = database === 'postgres' ? usePostgres() : undefined;
  let receiver: Receiver;
  let endpoint: string;
  let db: ChildDatabase;
  beforeEach(async () => {
    receiver = new Receiver();
    endpoint = await receiver.start();
    db = { file: tempDb(), postgres: await postgres?.createDatabase() };
  });
  afterEach(async () => {
    await receiver.close();
    db.file.remove();
    await db.postgres?.drop();
  });

  test('http/json over HTTP: the tool call span (its parent from the client traceparent, the service name from OTEL_SERVICE_NAME) and the duration metric', async () => {
    const child = spawn(process.execPath, [MAIN], {
      env: otelEnv(endpoint, db, {
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'billing-under-test',
        OTEL_BSP_SCHEDULE_DELAY: '50',
        OTEL_METRIC_EXPORT_INTERVAL: '200'
      }),
      stdio: ['ignore', 'pipe', 'pipe']
    });
    try {
      const url = await listening(child);
      const client = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(url));
      await client.callTool({ name: 'billing.list', arguments: {}, _meta: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` } });
      await receiver.received((e) => jsonSpans(e).some((s) => s.name === 'tools/call billing.list'), 'tools/call span');
      const exported = receiver.exports.find((e) => jsonSpans(e).some((s) => s.name === 'tools/call billing.list'))!;
      const span = jsonSpans(exported).find((s) => s.name === 'tools/call billing.list')!;
      expect(span.traceId).toBe(TRACE_ID);
      expect(span.parentSpanId).toBe(PARENT_ID);
      expect(span.attributes).toEqual(expect.arrayContaining([{ key: 'gen_ai.tool.name', value: { stringValue: 'billing.list' } }]));
      expect(serviceNameOf(exported)).toBe('billing-under-test');
      // The handler's span is in the same trace (the stages nest under the request span).
      expect(receiver.exports.flatMap(jsonSpans).some((s) => s.name === 'handler billing.list' && s.traceId === TRACE_ID)).toBe(true);
      await receiver.received(
        (e) => e.path === '/v1/metrics' && e.body.toString().includes('mcp.server.operation.duration'),
        'duration metric'
      );
      await client.close();
    } finally {
      await stop(child);
    }
  }, 60_000);

  test('http/protobuf over stdio: the spans and metrics held when the server stops are flushed on shutdown', async () => {
    // Batches and metric exports far in the future: only the shutdown's flush can deliver them.
    const env = otelEnv(endpoint, db, {
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_BSP_SCHEDULE_DELAY: '600000',
      OTEL_METRIC_EXPORT_INTERVAL: '600000'
    });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, '--stdio'],
      env: env as Record<string, string>,
      stderr: 'pipe'
    });
    const client = new Client({ name: 't', version: '1' });
    await client.connect(transport);
    await client.callTool({ name: 'billing.invoice', arguments: { id: 1 } });
    expect(receiver.exports).toEqual([]);
    await client.close(); // stdin ends: the server closes the app, which flushes
    await receiver.received(
      (e) => e.path === '/v1/traces' && e.body.includes(Buffer.from('tools/call billing.invoice')),
      'trace export on shutdown'
    );
    await receiver.received(
      (e) => e.path === '/v1/metrics' && e.body.includes(Buffer.from('mcp.server.operation.duration')),
      'metric export on shutdown'
    );
    const traces = receiver.exports.find((e) => e.path === '/v1/traces')!;
    expect(traces.contentType).toBe('application/x-protobuf');
    expect(traces.body.includes(Buffer.from('pipe'))).toBe(true); // network.transport over stdio
  }, 60_000);
});

describe('the sample app without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  // In process, before any server or database: the database plays no part.
  test('without OTEL_EXPORTER_OTLP_ENDPOINT nothing is exported and the SDK is not loaded', async () => {
    expect(await telemetryFromEnv({})).toBeUndefined();
    expect(Object.keys(require.cache).some((file) => file.includes('@opentelemetry/sdk-node'))).toBe(false);
  });
});

async function listening(child: ChildProcess): Promise<URL> {
  let seen = '';
  return new Promise<URL>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening on (\S+) /.exec(seen);
      if (match) resolve(new URL(match[1]!));
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${String(code)}) before listening:\n${seen}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}
