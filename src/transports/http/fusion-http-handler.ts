import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  createMcpHandler,
  isJsonContentType,
  isLegacyRequest,
  readRequestBody,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  validateHostHeader,
  type AuthInfo,
  type McpServerFactory,
  type ServerEventBus,
  type ServerNotifier
} from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpAuthGate } from '../../auth/http-auth';
import { isPlainJsonObject } from '../../wire/own-properties';
import type { TaskEndpoints, TaskListenRequest } from '../served-app';
import { jsonRpcErrorResponse } from './json-rpc-response';
import { MAX_BODY_BYTES, acceptRefusal, batchRefusal, prototypeArgumentRefusal, stripPrototypeKeys } from './protocol-refusals';
import { nodeRequest, pathOf, readNodeBody, writeNodeResponse, type BodyReader } from './node-entry';
import { SessionRegistry, type SessionOptions } from './session-registry';
import { statelessJsonLegacy } from './stateless-json-legacy';

/** Options of the Streamable HTTP endpoint. */
export interface HttpHandlerOptions {
  /** The endpoint path. Default `/mcp`. */
  path?: string;
  /**
   * `'sse'` (default): 2026-era requests stream their progress; 2025-era clients get sessions.
   * `'json'`: every answer is one JSON body, stateless, no sessions and no progress.
   */
  responseMode?: 'sse' | 'json';
  /** Hostnames accepted in the Host header. Default: the localhost names. */
  allowedHosts?: string[];
  /** Hostnames accepted in the Origin header (when a browser sends one). Default: the localhost names. */
  allowedOrigins?: string[];
  /** 2025-era session limits. */
  sessions?: SessionOptions;
  /** Reports errors the SDK sees out of band (never written to stdout). */
  onerror?: (error: Error) => void;
  /** Called once when the handler is closed (after its sessions and streams are). */
  onClose?: () => void;
  /**
   * The change-event bus behind 2026-era `subscriptions/listen` streams. Default: in process.
   * Several instances share one (for example over Redis pub/sub) so a change on one reaches
   * listeners on all.
   */
  bus?: ServerEventBus;
}

/** A web-standard MCP endpoint for an app (both eras), plus its shutdown. */
export interface FusionHttpHandler {
  fetch(request: Request, options?: { authInfo?: AuthInfo }): Promise<Response>;
  /**
   * The same endpoint for a raw `node:http` request (what `listen({ transport: 'http' })` uses):
   * reads the body from the Node stream itself, so it costs less than `toNodeHandler(handler)`.
   * `req.auth`, when a middleware set it, is the pass-through `authInfo`. Give it an unread
   * request (not one a body parser has consumed).
   */
  serveNode(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Closes its sessions and streams; idempotent. */
  close(): Promise<void>;
  /** Open 2025-era sessions. */
  readonly sessionCount: number;
  /** Publishes change notifications to 2026-era `subscriptions/listen` streams. */
  readonly notify: ServerNotifier;
}

/**
 * Builds the endpoint: Host and Origin validation first (DNS rebinding), then, with an auth
 * gate, the bearer token (401) and the scopes of what the request calls (403), then 2026-era
 * requests to the SDK's per-request handler and 2025-era ones to the session registry
 * (or, in JSON mode, everything to the stateless handler). The gate also serves the RFC 9728
 * protected resource metadata at its well-known paths.
 */
export function createFusionHttpHandler(
  factory: McpServerFactory,
  options: HttpHandlerOptions = {},
  gate?: HttpAuthGate,
  tasks?: TaskEndpoints
): FusionHttpHandler {
  const path = options.path ?? '/mcp';
  const allowedHosts = options.allowedHosts ?? localhostAllowedHostnames();
  const allowedOrigins = options.allowedOrigins ?? localhostAllowedOrigins();
  const onerror = options.onerror;
  const json = options.responseMode === 'json';
  const modern = routeConsoleWarnings(onerror, () =>
    createMcpHandler(factory, {
      legacy: 'reject',
      responseMode: json ? 'json' : 'auto',
      onerror,
      ...(options.bus ? { bus: options.bus } : {})
    })
  );
  const sessions = json ? undefined : new SessionRegistry(factory, options.sessions);
  const legacy = sessions ? sessions.handle.bind(sessions) : statelessJsonLegacy(factory);
  let closing: Promise<void> | undefined;

  /**
   * One request, whichever entry it came through (`fetch` or `serveNode`): `read` reads a POST's
   * body once, from wherever the entry has it.
   */
  async function serve(request: Request, pathname: string, passedAuth: AuthInfo | undefined, read?: BodyReader): Promise<Response> {
    if (gate && pathname !== path) {
      const metadata = gate.metadata(request, pathname);
      if (metadata) return metadata;
    }
    if (pathname !== path) return jsonRpcErrorResponse(404, -32000, `Not found: the MCP endpoint is ${path}`);
    // A web Request built in-process carries no Host header; its URL is where Node takes the host from.
    const host = request.headers.get('host') ?? new URL(request.url).host;
    if (!validateHostHeader(host, allowedHosts).ok) return jsonRpcErrorResponse(403, -32000, `Forbidden: Host ${host} is not allowed`);
    const rejected = originValidationResponse(request, allowedOrigins);
    if (rejected) return rejected;
    let authInfo = passedAuth;
    if (gate) {
      const verified = await gate.authenticate(request, new URL(request.url));
      if (verified instanceof Response) return verified;
      authInfo = verified;
    }
    let parsedBody: unknown;
    if (read) {
      const refused = await readPost(request, read);
      if (refused instanceof Response) return refused;
      parsedBody = refused.body;
      // Without a session, the version header is all that says the era of a batch.
      if (!request.headers.get('mcp-session-id')) {
        const batch = batchRefusal(parsedBody, request.headers.get('mcp-protocol-version') ?? undefined);
        if (batch) return batch;
      }
      // Refused before any server is built for it: what it calls needs scopes the token lacks.
      const forbidden = gate && authInfo ? gate.authorize(parsedBody, authInfo) : undefined;
      if (forbidden) return forbidden;
      // A listen for task status (the tasks extension) is served here: the SDK's listen router knows no task ids.
      const listen = tasks ? taskListenOf(parsedBody) : undefined;
      if (listen) return listenForTasks(listen, authInfo, tasks!, request.signal);
    }
    // The body is read once, here: both legs get it parsed, and the SDK reads it no more.
    if (!claimsModernEnvelope(parsedBody) && (onLegacySession(request) || (await isLegacyRequest(request, parsedBody)))) {
      return legacy(request, parsedBody, authInfo);
    }
    return modern.fetch(request, { authInfo, ...(parsedBody !== undefined ? { parsedBody } : {}) });
  }

  return {
    notify: modern.notify,
    get sessionCount() {
      return sessions?.size ?? 0;
    },
    fetch(request, requestOptions) {
      const read = request.method === 'POST' ? () => readRequestBody(request, MAX_BODY_BYTES) : undefined;
      return serve(request, new URL(request.url).pathname, requestOptions?.authInfo, read);
    },
    async serveNode(req, res) {
      // Aborted when the client goes away before the answer is written: a 2026-era call is cancelled so.
      const abort = new AbortController();
      let finished = false;
      res.on('close', () => {
        if (!finished) abort.abort();
      });
      let response: Response;
      try {
        const read = req.method === 'POST' ? () => readNodeBody(req, MAX_BODY_BYTES) : undefined;
        response = await serve(nodeRequest(req, abort.signal), pathOf(req.url), (req as { auth?: AuthInfo }).auth, read);
      } catch (error) {
        onerror?.(error instanceof Error ? error : new Error(String(error)));
        response = jsonRpcErrorResponse(500, -32603, 'Internal server error');
      }
      try {
        await writeNodeResponse(response, res, abort.signal);
      } catch (error) {
        // Writing failed (the socket, a header Node refuses): the answer is lost, the server stays up.
        onerror?.(error instanceof Error ? error : new Error(String(error)));
        res.destroy();
      }
      finished = true;
    },
    close() {
      return (closing ??= Promise.allSettled([sessions?.close(), modern.close()]).then(() => options.onClose?.()));
    }
  };
}

const MAX_LISTENED_TASKS = 100;

/** A `subscriptions/listen` request that asks for task status (`params.notifications.taskIds`), with its envelope's capabilities. */
interface ParsedTaskListen extends TaskListenRequest {
  readonly capabilities: unknown;
}

function taskListenOf(body: unknown): ParsedTaskListen | undefined {
  if (!isPlainJsonObject(body)) return undefined;
  const message = body as Record<string, unknown>;
  if (message.method !== 'subscriptions/listen' || (typeof message.id !== 'string' && typeof message.id !== 'number')) return undefined;
  const params = isPlainJsonObject(message.params) ? (message.params as Record<string, unknown>) : undefined;
  const notifications = params && isPlainJsonObject(params.notifications) ? (params.notifications as Record<string, unknown>) : undefined;
  const taskIds = notifications?.taskIds;
  if (!Array.isArray(taskIds) || taskIds.length === 0) return undefined;
  const meta = params && isPlainJsonObject(params._meta) ? (params._meta as Record<string, unknown>) : undefined;
  return {
    id: message.id,
    // A listen follows a bounded number of tasks: each one is looked up and watched.
    taskIds: taskIds.filter((taskId): taskId is string => typeof taskId === 'string').slice(0, MAX_LISTENED_TASKS),
    capabilities: meta?.[CLIENT_CAPABILITIES_META_KEY]
  };
}

/** Task status on a listen stream; a refusal (no extension: -32021) is the listen request's JSON-RPC error. */
async function listenForTasks(
  listen: ParsedTaskListen,
  authInfo: AuthInfo | undefined,
  tasks: TaskEndpoints,
  signal: AbortSignal
): Promise<Response> {
  const request = { subject: '', era: 'modern' as const, authInfo, clientCapabilities: listen.capabilities as Record<string, unknown> };
  try {
    return await tasks.listen(listen, request, signal);
  } catch (error) {
    const { code, message, data } = error as { code: number; message: string; data?: unknown };
    return Response.json({ jsonrpc: '2.0', id: listen.id, error: { code, message, ...(data !== undefined ? { data } : {}) } });
  }
}

const LEGACY_VERSIONS: ReadonlySet<string> = new Set(SUPPORTED_PROTOCOL_VERSIONS);

/**
 * Whether a request without the envelope claim is on a 2025-era session: it names the session
 * and a 2025-era `MCP-Protocol-Version`, which is what `isLegacyRequest` would conclude from
 * such a request (no claim, no modern version header), without classifying the body again.
 */
function onLegacySession(request: Request): boolean {
  const version = request.headers.get('mcp-protocol-version');
  return version !== null && LEGACY_VERSIONS.has(version) && request.headers.get('mcp-session-id') !== null;
}

/**
 * Whether a parsed body is a single request (not `initialize`, not a posted response) whose
 * params carry the 2026-07-28 envelope claim: the SDK classifies such a body as modern, or
 * refuses it on the modern leg, never as legacy. Saves classifying it twice (here with
 * `isLegacyRequest`, then in the modern handler); anything else is left to `isLegacyRequest`.
 */
function claimsModernEnvelope(body: unknown): boolean {
  if (!isPlainJsonObject(body)) return false;
  const message = body as Record<string, unknown>;
  if (typeof message.method !== 'string' || message.method === 'initialize' || 'result' in message || 'error' in message) return false;
  const params = message.params;
  if (!isPlainJsonObject(params)) return false;
  const meta = (params as Record<string, unknown>)._meta;
  return isPlainJsonObject(meta) && PROTOCOL_VERSION_META_KEY in (meta as object);
}

/**
 * Reads a POST the way both eras require: an acceptable `Accept` (406), a JSON content type
 * (415), at most {@link MAX_BODY_BYTES} (413), valid JSON (400, -32700). Keys that could reach
 * a prototype are dropped from `inputResponses` before the SDK copies that map.
 */
async function readPost(request: Request, readBody: BodyReader): Promise<Response | { body: unknown }> {
  const notAcceptable = acceptRefusal(request);
  if (notAcceptable) return notAcceptable;
  if (!isJsonContentType(request.headers.get('content-type'))) {
    return jsonRpcErrorResponse(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
  }
  let body: unknown;
  let read: Awaited<ReturnType<BodyReader>>;
  try {
    read = await readBody();
  } catch {
    return jsonRpcErrorResponse(400, -32700, 'Parse error: the request body could not be read');
  }
  if (read.tooLarge) return jsonRpcErrorResponse(413, -32000, `Payload Too Large: the request body exceeds ${MAX_BODY_BYTES} bytes`);
  try {
    body = JSON.parse(read.text);
  } catch {
    return jsonRpcErrorResponse(400, -32700, 'Parse error: the request body is not valid JSON');
  }
  const hostile = prototypeArgumentRefusal(body);
  if (hostile) return hostile;
  stripPrototypeKeys(body);
  return { body };
}

/** The SDK's console warning for JSON response mode: what the README says of JSON mode already. */
const JSON_MODE_WARNING = "responseMode: 'json' drops mid-call notifications";

/**
 * Runs `build` with `console.warn` routed to `onerror`: the SDK (2.4.0) warns on the console
 * when JSON response mode is chosen, which this framework documents instead (JSON mode carries
 * no progress), so that one is dropped. Synchronous, so nothing else can warn in between.
 */
function routeConsoleWarnings<T>(onerror: ((error: Error) => void) | undefined, build: () => T): T {
  /* eslint-disable no-console -- the SDK's console warnings are routed to the framework's logger here */
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    const message = args.map(String).join(' ');
    if (!message.startsWith(JSON_MODE_WARNING)) onerror?.(new Error(message));
  };
  try {
    return build();
  } finally {
    console.warn = warn;
  }
  /* eslint-enable no-console */
}
