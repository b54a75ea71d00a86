import type SqliteDatabase from 'better-sqlite3';
import { chmodSync, createReadStream, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBillingApp } from './app';
import { startInspectorChild, type InspectorChild } from '../test/helpers/inspector-child';
import { inspect, invoiceRow, TEST_STATE_KEY, tempDb, type TempDb } from './test-helpers';

/*
 * `mcpfusion inspector` as a command (the compiled binary, a child process): it prints its URL,
 * opens a browser only when asked (BROWSER), answers only its own page (Host header, the
 * per-run token in the path, JSON from its own origin), and drives a server spawned over stdio
 * (the sample app's --stdio mode) in both eras through its backend API.
 */

const ROOT = join(__dirname, '..');
const SAMPLE = join(ROOT, 'build', 'sample-app', 'main.js');

/** A raw HTTP request to the inspector (fetch cannot set Host). */
function raw(
  url: URL,
  options: { method?: string; headers?: Record<string, string>; body?: string }
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

async function post<T>(inspector: InspectorChild, path: string, body: unknown): Promise<T> {
  const response = await fetch(new URL(path, inspector.url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body)
  });
  const value = (await response.json()) as T;
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(value)}`);
  return value;
}

/**
 * The inspector's event stream, read as the page reads it. Resolves once the stream is open (the
 * inspector sends its headers when it attaches it), so no event published after this is missed.
 */
async function openEvents(inspector: InspectorChild, signal: AbortSignal) {
  const response = await fetch(new URL('api/events', inspector.url), { signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  /** The first event that `match` turns into a value. */
  return async function next<T>(match: (event: Record<string, unknown>) => T | undefined): Promise<T> {
    for (;;) {
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        const found = data ? match(JSON.parse(data) as Record<string, unknown>) : undefined;
        if (found !== undefined) return found;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the event stream ended');
      buffer += decoder.decode(value, { stream: true });
    }
  };
}

describe('mcpfusion inspector (the command)', () => {
  let db: TempDb;
  let disk: SqliteDatabase.Database;
  let bin: string;
  const env = () => ({ BILLING_DB: db.path, FUSION_STATE_KEY: TEST_STATE_KEY });

  beforeAll(async () => {
    db = tempDb();
    // Seeds the file first, as the first spawned server would.
    await createBillingApp({ dbPath: db.path, stateKey: TEST_STATE_KEY }).close();
    disk = inspect(db.path);
    bin = mkdtempSync(join(tmpdir(), 'mcpfusion-opener-'));
  });
  afterAll(() => {
    disk?.close();
    db?.remove();
    rmSync(bin, { recursive: true, force: true });
  });

  test('BROWSER=none: prints its URL (http://127.0.0.1:…/<token>/) on stdout and opens nothing, not even the platform opener', async () => {
    // A platform opener that leaves a mark if it is ever run.
    const mark = join(bin, 'opened');
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\necho "$1" > '${mark}'\n`);
    chmodSync(join(bin, 'xdg-open'), 0o755);
    const inspector = await startInspectorChild(['--stdio', `node ${SAMPLE} --stdio`], {
      ...env(),
      BROWSER: 'none',
      PATH: `${bin}:${process.env.PATH ?? ''}`
    });
    try {
      expect(inspector.url.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(inspector.url.pathname).toMatch(/^\/[\w-]{20,}\/$/);
      await inspector.stderrMatching(/no browser opened \(BROWSER=none\)/);
      const page = await fetch(inspector.url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
      expect(await page.text()).toContain('<label for="protocol">Protocol</label>');
    } finally {
      expect(await inspector.stop()).toBe(0);
    }
    expect(existsSync(mark)).toBe(false);
  });

  test('BROWSER=<command>: that command is run with the URL', async () => {
    const fifo = join(bin, 'url.fifo');
    execFileSync('mkfifo', [fifo]);
    const opener = join(bin, 'fake-browser');
    writeFileSync(opener, `#!/bin/sh\necho "$1" > '${fifo}'\n`);
    chmodSync(opener, 0o755);
    // Opened before the inspector starts; it resolves when the opener writes (a FIFO read waits for its writer).
    const received = new Promise<string>((resolve, reject) => {
      let text = '';
      createReadStream(fifo)
        .on('data', (chunk) => (text += chunk.toString()))
        .on('end', () => resolve(text.trim()))
        .on('error', reject);
    });
    const inspector = await startInspectorChild(['--stdio', `node ${SAMPLE} --stdio`], { ...env(), BROWSER: opener });
    try {
      expect(await received).toBe(inspector.url.href);
    } finally {
      await inspector.stop();
    }
  });

  describe('over --stdio, the sample app spawned by the inspector', () => {
    let inspector: InspectorChild;
    beforeAll(async () => {
      inspector = await startInspectorChild(['--stdio', `node ${SAMPLE} --stdio`], { ...env(), BROWSER: 'none' });
    });
    afterAll(async () => {
      expect(await inspector?.stop()).toBe(0);
    });

    test('a port in use is a usage error that says what to do', async () => {
      const taken = await startInspectorChild(['--stdio', `node ${SAMPLE} --stdio`, '--port', inspector.url.port], {
        ...env(),
        BROWSER: 'none'
      }).then(
        (second) => second.stop().then(() => 'started'),
        (error: Error) => error.message
      );
      expect(taken).toMatch(/exited \(64\)[\s\S]*port \d+ on 127\.0\.0\.1 is in use: choose another with --port/);
    });

    test('answers only its own page: another Host, a wrong token, a form post or another origin are refused', async () => {
      const port = inspector.url.port;
      expect((await raw(inspector.url, { headers: { Host: `evil.example:${port}` } })).status).toBe(421);
      expect((await raw(new URL(`http://127.0.0.1:${port}/not-the-token/`), {})).status).toBe(404);
      expect((await raw(new URL(`http://127.0.0.1:${port}/`), {})).status).toBe(404);
      const api = new URL('api/connect', inspector.url);
      const json = JSON.stringify({ era: '2026-07-28' });
      expect((await raw(api, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: json })).status).toBe(415);
      expect(
        (await raw(api, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: 'http://evil.example' }, body: json }))
          .status
      ).toBe(403);
      expect((await raw(api, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"era":"1999"}' })).status).toBe(
        400
      );
    });

    test.each(['2025-11-25', '2026-07-28'])(
      '%s: connects, lists, calls a tool, and a refund asks its question through the event stream',
      async (era) => {
        const summary = await post<{ protocolVersion: string; tools: Array<{ name: string }> }>(inspector, 'api/connect', { era });
        expect(summary.protocolVersion).toBe(era);
        expect(summary.tools.map((tool) => tool.name)).toEqual(
          expect.arrayContaining(['billing.invoice', 'billing.refund', 'reports.rebuild'])
        );

        const invoice = await post<{ ok: boolean; result: { structuredContent: { id: number } } }>(inspector, 'api/call', {
          callId: `invoice-${era}`,
          kind: 'tool',
          name: 'billing.invoice',
          arguments: { id: 1 }
        });
        expect(invoice.ok).toBe(true);
        expect(invoice.result.structuredContent.id).toBe(1);

        const id = disk.prepare("SELECT id FROM invoices WHERE status = 'paid' ORDER BY id").pluck().get() as number;
        const listening = new AbortController();
        // Open before the call starts: the question cannot be missed.
        const next = await openEvents(inspector, listening.signal);
        const calling = post<{ ok: boolean; result: { isError?: boolean } }>(inspector, 'api/call', {
          callId: `refund-${era}`,
          kind: 'tool',
          name: 'billing.refund',
          arguments: { id }
        });
        const question = await next((event) =>
          event.type === 'question' ? (event.question as { questionId: string; message: string }) : undefined
        );
        expect(question.message).toMatch(/^Refund .+\?$/);
        await post(inspector, 'api/answer', { questionId: question.questionId, answer: { action: 'accept', content: { confirm: true } } });
        const refund = await calling;
        expect(refund.ok && !refund.result.isError).toBe(true);
        expect(invoiceRow(disk, id).status).toBe('refunded');
        listening.abort();
      }
    );
  });
});
