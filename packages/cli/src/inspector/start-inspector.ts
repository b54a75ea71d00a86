import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { CliError } from '../cli-error';
import type { Target } from '../options';
import type { InspectorDevHooks } from './dev-hooks';
import { EventHub } from './event-hub';
import type { CallRequest, EraName } from './inspector-protocol';
import { InspectorSession } from './inspector-session';
import { loadPageAssets } from './page-assets';
import { readAnswer } from './question-desk';
import { GuardRefusal, readJson, RequestGuard } from './request-guard';

/** Options of {@link startInspector}. */
export interface InspectorOptions {
  /** The MCP server: an HTTP endpoint, or a command line spawned over stdio (once per chosen era). */
  readonly target: Target;
  /** Extra HTTP headers of every request to the server (`Authorization`, …). */
  readonly headers?: Record<string, string>;
  /** The inspector's port on 127.0.0.1; 0 or absent: a free one. */
  readonly port?: number;
  /** What `mcpfusion dev` tells about its project (chains, reloads, timings): the dev panel shows only with them. */
  readonly devHooks?: InspectorDevHooks;
}

/** A running inspector. */
export interface RunningInspector {
  /** The page's address, with the per-run token in its path: `http://127.0.0.1:PORT/TOKEN/`. */
  readonly url: URL;
  /** Cancels its calls, closes its MCP connection, its event streams and its listener. */
  close(): Promise<void>;
}

/**
 * The page's Content-Security-Policy: its own modules and styles, fetches to itself only. Inline
 * scripts and styles are allowed because a view's `srcdoc` document inherits this policy (the
 * view's own, stricter policy is added to it in the iframe); the page itself has none.
 */
const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'"
].join('; ');

const ERAS: readonly EraName[] = ['2025-11-25', '2026-07-28'];

/**
 * Starts the inspector: a web server on 127.0.0.1 that serves the inspector page and drives
 * the MCP server for it through a real SDK client (in the era chosen on the page). Opening a
 * browser is the caller's business (`mcpfusion inspector` does it; `mcpfusion dev` may mount it).
 *
 * @example
 * ```ts
 * const inspector = await startInspector({ target: { kind: 'http', url: new URL('http://127.0.0.1:3000/mcp') } });
 * console.log(`open ${inspector.url.href}`);
 * await inspector.close();
 * ```
 */
export async function startInspector(options: InspectorOptions): Promise<RunningInspector> {
  const assets = loadPageAssets();
  const token = randomBytes(18).toString('base64url');
  const hub = new EventHub();
  const session = new InspectorSession(options.target, options.headers ?? {}, hub, options.devHooks);
  const unsubscribe = [
    options.devHooks?.onReload?.((reload) => hub.publish({ type: 'dev-reload', reload })),
    options.devHooks?.onCallTimings?.((timings) => hub.publish({ type: 'dev-timings', timings }))
  ];
  let port = 0;
  const guard = new RequestGuard(token, () => port);

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      const status = error instanceof GuardRefusal ? error.status : 500;
      const message = error instanceof Error ? error.message : String(error);
      if (!response.headersSent) sendJson(response, status, { error: message });
      else response.end();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = guard.check(request);
    if (request.method === 'GET' || request.method === 'HEAD') {
      if (path === 'api/events') return hub.attach(response);
      if (path === 'api/state') return sendJson(response, 200, session.state());
      const asset = assets.get(path);
      if (!asset) throw new GuardRefusal(404, 'not found');
      response.writeHead(200, {
        'Content-Type': asset.type,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        'X-Frame-Options': 'DENY',
        'Referrer-Policy': 'no-referrer',
        ...(path === '' ? { 'Content-Security-Policy': PAGE_CSP } : {})
      });
      response.end(request.method === 'HEAD' ? undefined : asset.body);
      return;
    }
    if (request.method !== 'POST') throw new GuardRefusal(405, 'GET or POST');
    const body = (await readJson(request)) as Record<string, unknown> | null;
    if (typeof body !== 'object' || body === null) throw new GuardRefusal(400, 'the body is not a JSON object');
    switch (path) {
      case 'api/connect': {
        const era = body.era as EraName;
        if (!ERAS.includes(era)) throw new GuardRefusal(400, `era: one of ${ERAS.join(', ')}`);
        return sendJson(response, 200, await session.connect(era));
      }
      case 'api/refresh':
        return sendJson(response, 200, await session.refresh());
      case 'api/call':
        return sendJson(response, 200, await session.call(readCall(body)));
      case 'api/cancel':
        return sendJson(response, 200, { cancelled: session.cancel(String(body.callId)) });
      case 'api/answer': {
        const answer = readAnswer(body.answer);
        if (!answer) throw new GuardRefusal(400, 'answer: { action: "accept", content } | { action: "decline" } | { action: "cancel" }');
        return sendJson(response, 200, { answered: session.answer(String(body.questionId), answer) });
      }
      case 'api/view':
        return sendJson(response, 200, await session.readView(String(body.uri)));
      case 'api/chain': {
        const kind = body.kind === 'prompt' || body.kind === 'resource' ? body.kind : 'tool';
        return sendJson(response, 200, { chain: session.describeChain(kind, String(body.name)) ?? null });
      }
      default:
        throw new GuardRefusal(404, 'not found');
    }
  }

  server.listen(options.port ?? 0, '127.0.0.1');
  try {
    await once(server, 'listening');
  } catch (error) {
    for (const stop of unsubscribe) stop?.();
    if ((error as { code?: unknown }).code === 'EADDRINUSE')
      throw new CliError(`port ${options.port} on 127.0.0.1 is in use: choose another with --port, or leave --port out for a free one`);
    throw error;
  }
  port = (server.address() as AddressInfo).port;
  const url = new URL(`http://127.0.0.1:${port}/${token}/`);
  let closing: Promise<void> | undefined;
  return {
    url,
    close: () =>
      (closing ??= (async () => {
        for (const stop of unsubscribe) stop?.();
        hub.close();
        await session.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })())
  };
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff'
  });
  response.end(JSON.stringify(value));
}

/** The page's call request (untrusted JSON), checked. */
function readCall(body: Record<string, unknown>): CallRequest {
  const { callId, kind, name, arguments: args, task } = body;
  if (typeof callId !== 'string' || callId === '' || callId.length > 100) throw new GuardRefusal(400, 'callId: a short string');
  if (kind !== 'tool' && kind !== 'prompt' && kind !== 'resource') throw new GuardRefusal(400, 'kind: tool, prompt or resource');
  if (typeof name !== 'string' || name === '') throw new GuardRefusal(400, 'name: the tool or prompt name, or the resource URI');
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
    throw new GuardRefusal(400, 'arguments: a JSON object');
  return { callId, kind, name, ...(args !== undefined ? { arguments: args as Record<string, unknown> } : {}), task: task === true };
}
