import {
  PROTOCOL_VERSION_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  createMcpHandler,
  isLegacyRequest,
  type AuthInfo,
  type McpServerFactory,
  type ServerEventBus,
  type ServerNotifier
} from '@modelcontextprotocol/server';
import { isPlainJsonObject } from '../../wire/own-properties';
import { SessionRegistry, type SessionOptions, type SessionPrincipalOf } from './session-registry';
import { statelessJsonLegacy } from './stateless-json-legacy';
import { answerListen, listenOf, type ListenRouter } from './task-listen-request';
import type { SessionLane } from './front-lane/session-lane';
import type { ModernLane } from './front-lane/modern-lane';
import type { EntryRequest } from './entry-request';

/**
 * Routing: where a request that passed every guard is served. A task listen goes to the app's
 * task endpoints; a 2026-era request to the SDK's per-request handler (the modern leg); a
 * 2025-era one to the session registry, or in JSON mode to the stateless legacy handler (the
 * legacy leg). Owns the legs themselves, so closing the routing closes their sessions and streams.
 */
export interface Routing {
  route(request: EntryRequest, parsedBody: unknown, authInfo: AuthInfo | undefined): Promise<Response>;
  /** Publishes change notifications to 2026-era `subscriptions/listen` streams. */
  readonly notify: ServerNotifier;
  /** Open 2025-era sessions. */
  readonly sessionCount: number;
  /** Closes the sessions and the modern leg; never rejects. */
  close(): Promise<void>;
}

/** What the legs are built with (the parts of `HttpHandlerOptions` they use). */
export interface RoutingOptions {
  responseMode?: 'sse' | 'json';
  sessions?: SessionOptions;
  legacy?: 'sessions' | 'reject';
  onerror?: (error: Error) => void;
  bus?: ServerEventBus;
}

export function createRouting(
  factory: McpServerFactory,
  options: RoutingOptions,
  listens: ListenRouter | undefined,
  principalOf: SessionPrincipalOf | undefined,
  lane?: SessionLane,
  modernLane?: ModernLane
): Routing {
  const { onerror } = options;
  const json = options.responseMode === 'json';
  const modern = routeConsoleWarnings(onerror, () =>
    createMcpHandler(factory, {
      legacy: 'reject',
      responseMode: json ? 'json' : 'auto',
      onerror,
      ...(options.bus ? { bus: options.bus } : {})
    })
  );
  const rejected = options.legacy === 'reject';
  const sessions = json || rejected ? undefined : new SessionRegistry(factory, options.sessions, principalOf, lane);
  // Refused: the modern leg (made with `legacy: 'reject'`) answers a 2025-era request with the
  // unsupported-protocol-version error, and acknowledges its notifications.
  const legacy = rejected
    ? (request: EntryRequest, parsedBody: unknown, authInfo: AuthInfo | undefined) =>
        modern.fetch(request.web(), { authInfo, ...(parsedBody !== undefined ? { parsedBody } : {}) })
    : sessions
      ? sessions.handle.bind(sessions)
      : statelessJsonLegacy(factory);
  // The SDK's modern leg gets the web `Request` (its transport and the app's handlers read it).
  const modernFetch = (request: EntryRequest, parsedBody: unknown, authInfo: AuthInfo | undefined): Promise<Response> =>
    modern.fetch(request.web(), { authInfo, ...(parsedBody !== undefined ? { parsedBody } : {}) });
  return {
    notify: modern.notify,
    get sessionCount() {
      return sessions?.size ?? 0;
    },
    route(request, parsedBody, authInfo) {
      // Not an async function: a 2026-07-28 call (the envelope claim) goes straight to the modern
      // leg's promise, without one of its own around it. Only `serve` calls this, inside its own
      // async function, so a synchronous throw here still ends as its rejection.
      // A listen an extension answers (task status, the tasks extension's) is served here: the SDK's listen router knows only the core ones.
      const listen = listens ? listenOf(parsedBody) : undefined;
      if (listen && listens!.accepts(listen)) return answerListen(listen, authInfo, listens!, request.signal, request.web());
      if (claimsModernEnvelope(parsedBody)) {
        // The front lane of 2026-07-28 (`frontLane`), where it takes the request (not in JSON mode, which drops progress).
        const laned = modernLane && !json ? modernLane.serve(request, parsedBody, authInfo) : undefined;
        return laned ?? modernFetch(request, parsedBody, authInfo);
      }
      if (onLegacySession(request)) return legacy(request, parsedBody, authInfo);
      return isLegacyRequest(request.web(), parsedBody).then((isLegacy) =>
        isLegacy ? legacy(request, parsedBody, authInfo) : modernFetch(request, parsedBody, authInfo)
      );
    },
    close: () => {
      modernLane?.close();
      return Promise.allSettled([sessions?.close(), modern.close()]).then(() => undefined);
    }
  };
}

const LEGACY_VERSIONS: ReadonlySet<string> = new Set(SUPPORTED_PROTOCOL_VERSIONS);

/**
 * Whether a request without the envelope claim is on a 2025-era session: it names the session
 * and a 2025-era `MCP-Protocol-Version`, which is what `isLegacyRequest` would conclude from
 * such a request (no claim, no modern version header), without classifying the body again.
 */
function onLegacySession(request: EntryRequest): boolean {
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
