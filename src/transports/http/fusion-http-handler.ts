import { type AuthInfo, type McpServerFactory, type ServerEventBus, type ServerNotifier } from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpAuthGate } from '../../auth/http-auth';
import type { ListenRouter } from './task-listen-request';
import { authenticationGuard } from './guards/authentication.guard';
import { guardBody } from './guards/body.guard';
import { hostOriginGuard } from './guards/host-origin.guard';
import { DEFAULT_WRITE_TIMEOUT_MS, pathOf, readNodeBody, writeNodeResponse, type BodyReader } from './node-entry';
import { nodeEntryRequest } from './node-entry-request';
import { webEntryRequest, type EntryRequest } from './entry-request';
import { authorityOf } from './authority';
import { pressureFor } from './connection-facts';
import { MAX_BODY_BYTES, badAuthority, endpointNotFound, internalError } from './protocol-refusals';
import { pathOfRequestUrl } from './request-path';
import { endWhenRead, takeResponseEnd } from './response-end';
import { webResponseOf } from './json-answer';
import { readWebBody } from './web-body';
import { createRouting } from './routing';
import type { SessionOptions, SessionPrincipalOf } from './session-registry';
import type { LaneCounts, SessionLane } from './front-lane/session-lane';
import type { ModernLane } from './front-lane/modern-lane';

/**
 * The HTTP entry of an app: a composition of named guards, run in order on every request,
 * each owning one concern and answering its own refusals (built in `protocol-refusals.ts`):
 *
 * 1. the path: the endpoint, else the RFC 9728 metadata (with auth), else 404;
 * 2. host/origin (`guards/host-origin.guard.ts`): DNS rebinding, 403;
 * 3. authentication (`guards/authentication.guard.ts`): the bearer token, 401;
 * 4. body (`guards/body.guard.ts`), for a POST: 406, 415, 413, 400 parse errors, batches;
 *    then the scopes of what the body calls (the authentication guard again), 403;
 * 5. routing (`routing.ts`): task listens, the modern leg, the legacy leg (sessions).
 *
 * The entry points (`fetch`, `serveNode`) only adapt their request to that one path.
 */

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
  /**
   * How 2025-era clients are served. `'sessions'` (default): a session per client, kept in this
   * process's memory (in JSON mode: one stateless JSON answer per request). `'reject'`: 2026-07-28
   * only; a 2025-era request gets the SDK's unsupported-protocol-version error naming the versions
   * served. For runtimes without a long-lived process (Cloudflare Workers: requests land on any
   * isolate, so a session's memory is not there for its next request).
   */
  legacy?: 'sessions' | 'reject';
  /**
   * How long a streamed answer waits for a client that reads nothing (its socket buffer full)
   * before the stream is ended and the call cancelled, releasing its slot and lock. While it
   * waits, progress for the call is dropped rather than queued. Default 30,000 ms.
   */
  writeTimeoutMs?: number;
  /**
   * Serve a `tools/call` on the front fast lane: through the app's own call path without the SDK
   * server's per-request work, where the lane can do so with the same outcome (else the normal path
   * serves it): a 2026-07-28 request's (`front-lane/modern-lane.ts`) and a 2025-era session's
   * (`front-lane/session-lane.ts`), whose streams are stored in the session's event store and
   * resumed with `Last-Event-ID` as the normal path's.
   * - Unset: on, answering what the normal path answers, byte for byte.
   * - `true` (`serveGateway` and `mcpfusion serve`): on, and a quick 2025-era call is answered as one
   *   JSON body rather than an SSE stream (less work a call); a connection that drops before the
   *   call said anything then cancels it (the normal path's priming event would let the client
   *   resume).
   * - `false`: off.
   */
  frontLane?: boolean;
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
  /** Answers one web-standard request; `authInfo`: the caller, as a gate of your own verified it (scopes are still checked). */
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
  /** With a front lane (see `frontLane`): how many requests the lanes (both eras) served and left to the normal path (a diagnostic). */
  readonly frontLane?: LaneCounts;
}

/**
 * Builds the endpoint, its guards in the order above. `gate` is the app's auth (without one, the
 * `authInfo` an entry is given is trusted as is), `listens` what answers its extensions' listens (task status among them), and `principalOf`
 * says whom a 2025-era session is bound to (default: `defaultPrincipalOf` of the token).
 */
export function createFusionHttpHandler(
  factory: McpServerFactory,
  options: HttpHandlerOptions = {},
  gate?: HttpAuthGate,
  listens?: ListenRouter,
  principalOf?: SessionPrincipalOf,
  lane?: SessionLane,
  modernLane?: ModernLane
): FusionHttpHandler {
  const path = options.path ?? '/mcp';
  const onerror = options.onerror;
  const hostOrigin = hostOriginGuard(options);
  const authentication = gate ? authenticationGuard(gate) : undefined;
  const routing = createRouting(factory, options, listens, principalOf, lane, modernLane);
  const writeTimeoutMs = options.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS;
  let closing: Promise<void> | undefined;

  /**
   * One request, whichever entry it came through (`fetch` or `serveNode`), through the guards
   * in order: `read` reads a POST's body once, from wherever the entry has it.
   */
  async function serve(request: EntryRequest, pathname: string, passedAuth: AuthInfo | undefined, read?: BodyReader): Promise<Response> {
    if (pathname !== path) return authentication?.metadata(request, pathname) ?? endpointNotFound(path);
    const misdirected = hostOrigin(request);
    if (misdirected) return misdirected;
    const caller = authentication ? await authentication.authenticate(request) : passedAuth;
    if (caller instanceof Response) return caller;
    // The body is read once, here: both legs get it parsed, and the SDK reads it no more.
    let parsedBody: unknown;
    if (read) {
      const post = await guardBody(request, read);
      if (post instanceof Response) return post;
      parsedBody = post.body;
      // Refused before any server is built for it: what it calls needs scopes the token lacks.
      const forbidden = authentication?.authorize(parsedBody, caller);
      if (forbidden) return forbidden;
    }
    return routing.route(request, parsedBody, caller);
  }

  return {
    notify: routing.notify,
    ...(lane || modernLane ? { frontLane: (lane ?? modernLane)!.counts } : {}),
    get sessionCount() {
      return routing.sessionCount;
    },
    fetch(request, requestOptions) {
      const read = request.method === 'POST' ? () => readWebBody(request, MAX_BODY_BYTES) : undefined;
      // The response leaves this endpoint: a session's stream counts in flight until its reader reads it to the end.
      return serve(webEntryRequest(request), pathOfRequestUrl(request.url), requestOptions?.authInfo, read).then(leavingResponse);
    },
    async serveNode(req, res) {
      // Aborted when the client goes away before the answer is written: a 2026-era call is cancelled so.
      const abort = new AbortController();
      let finished = false;
      res.on('close', () => {
        // Closed before the answer was written in full (the client went away, or the entry ended a stream nobody read).
        if (!finished || !res.writableFinished) abort.abort();
      });
      let response: Response;
      let request: EntryRequest | undefined;
      try {
        const read = req.method === 'POST' ? () => readNodeBody(req, MAX_BODY_BYTES) : undefined;
        const target = authorityOf(req.rawHeaders, req.url ?? '/');
        if ('problem' in target) {
          response = badAuthority(target.problem);
        } else {
          request = nodeEntryRequest(req, abort.signal, target.authority);
          response = await serve(request, pathOf(req.url), (req as { auth?: AuthInfo }).auth, read);
        }
      } catch (error) {
        onerror?.(error instanceof Error ? error : new Error(String(error)));
        response = internalError();
      }
      // A session's stream counts in flight until it is written here (or writing stops), without a second stream around it.
      const ended = takeResponseEnd(response);
      try {
        await writeNodeResponse(response, res, abort.signal, {
          pressure: request ? pressureFor(request) : { congested: false },
          writeTimeoutMs
        });
      } catch (error) {
        // Writing failed (the socket, a header Node refuses): the answer is lost, the server stays up.
        onerror?.(error instanceof Error ? error : new Error(String(error)));
        res.destroy();
      } finally {
        ended?.();
      }
      finished = true;
    },
    close() {
      return (closing ??= routing.close().then(() => options.onClose?.()));
    }
  };
}

/** A response as it leaves the web entry (a function of the module: no closure made per request for it). */
function leavingResponse(response: Response): Response {
  return endWhenRead(webResponseOf(response));
}
