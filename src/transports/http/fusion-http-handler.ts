import {
  createMcpHandler,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  validateHostHeader,
  type AuthInfo,
  type McpServerFactory,
  type ServerEventBus,
  type ServerNotifier
} from '@modelcontextprotocol/server';
import { jsonRpcErrorResponse } from './json-rpc-response';
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
  close: () => Promise<void>;
  /** Open 2025-era sessions. */
  readonly sessionCount: number;
  /** Publishes change notifications to 2026-era `subscriptions/listen` streams. */
  readonly notify: ServerNotifier;
}

/**
 * Builds the endpoint: Host and Origin validation first (DNS rebinding), then 2026-era
 * requests to the SDK's per-request handler and 2025-era ones to the session registry
 * (or, in JSON mode, everything to the stateless handler).
 */
export function createFusionHttpHandler(factory: McpServerFactory, options: HttpHandlerOptions = {}): FusionHttpHandler {
  const path = options.path ?? '/mcp';
  const allowedHosts = options.allowedHosts ?? localhostAllowedHostnames();
  const allowedOrigins = options.allowedOrigins ?? localhostAllowedOrigins();
  const onerror = options.onerror;
  const json = options.responseMode === 'json';
  const modern = createMcpHandler(factory, {
    legacy: 'reject',
    responseMode: json ? 'json' : 'auto',
    onerror,
    ...(options.bus ? { bus: options.bus } : {})
  });
  const sessions = json ? undefined : new SessionRegistry(factory, options.sessions);
  const legacy = sessions ? sessions.handle.bind(sessions) : statelessJsonLegacy(factory);

  return {
    notify: modern.notify,
    get sessionCount() {
      return sessions?.size ?? 0;
    },
    async fetch(request, requestOptions) {
      const url = new URL(request.url);
      if (url.pathname !== path) return jsonRpcErrorResponse(404, -32000, `Not found: the MCP endpoint is ${path}`);
      // A web Request built in-process carries no Host header; its URL is where Node takes the host from.
      const host = request.headers.get('host') ?? url.host;
      if (!validateHostHeader(host, allowedHosts).ok) return jsonRpcErrorResponse(403, -32000, `Forbidden: Host ${host} is not allowed`);
      const rejected = originValidationResponse(request, allowedOrigins);
      if (rejected) return rejected;
      const authInfo = requestOptions?.authInfo;
      const parsedBody =
        request.method === 'POST'
          ? await request
              .clone()
              .json()
              .catch(() => undefined)
          : undefined;
      if (await isLegacyRequest(request, parsedBody)) return legacy(request, parsedBody, authInfo);
      return modern.fetch(request, { authInfo });
    },
    async close() {
      await Promise.allSettled([sessions?.close(), modern.close()]);
    }
  };
}
