import { randomUUID } from 'node:crypto';
import {
  WebStandardStreamableHTTPServerTransport,
  isInitializeRequest,
  type AuthInfo,
  type EventStore,
  type McpServerFactory
} from '@modelcontextprotocol/server';
import { defaultPrincipalOf } from '../../auth/caller-auth';
import { remoteAddressOf } from './connection-facts';
import {
  batchRefusal,
  sessionNotFound,
  sessionRequired,
  shuttingDown,
  tooManySessions,
  tooManySessionsForCaller
} from './protocol-refusals';
import { onResponseEnd } from './response-end';
import { BoundedSessionEventStore } from './session-event-store';
import type { Server } from '@modelcontextprotocol/server';
import type { LaneSession, SessionLane } from './front-lane/session-lane';
import type { EntryRequest } from './entry-request';

/** Limits of the 2025-era session registry. */
export interface SessionOptions {
  /** Sessions idle this long are closed. Default 30 minutes. */
  idleTimeoutMs?: number;
  /** Open sessions at most; a new one beyond that is refused with 503. Default 1000. */
  maxSessions?: number;
  /**
   * Open sessions one caller may have (by principal; without a token, by remote address), so
   * that one caller cannot take every session. A new one beyond that ends the caller's least
   * recently used idle session (no request in flight; an open GET stream does not count) to make
   * room: a client that never ends its sessions (the official Inspector) keeps connecting. Only
   * when every one of the caller's sessions has a request in flight is the new one refused, with
   * 429. Default 20.
   */
  maxSessionsPerCaller?: number;
  /**
   * Makes the event store of a new session (resumable SSE: a client reconnects with
   * `Last-Event-ID`). Default: the last 1000 messages in memory (`BoundedSessionEventStore`).
   */
  eventStore?: () => EventStore;
  /** The reconnection delay suggested to clients in the SSE `retry` field. Default 1000 ms. */
  retryIntervalMs?: number;
  /**
   * Resumes, on this instance, a stream of a session another instance holds: a GET with the
   * session's id and `Last-Event-ID` is answered by replaying what the stream missed (for the
   * caller the session is bound to), then ended. `RedisSessionEvents.resume` from
   * `@mcpfusion/core/redis`, with its `eventStore`. Without it such a GET gets 404.
   */
  resume?: (lastEventId: string) => Promise<SessionResumption | undefined>;
}

/** A stream of a session held elsewhere, as a shared event store finds it (see `SessionOptions.resume`). */
export interface SessionResumption {
  /** The 2025-era session the stream belongs to. */
  readonly sessionId: string;
  /** The principal the session is bound to. */
  readonly owner: string | undefined;
  /** Sends every event of the stream after the last one the client saw. */
  replay(send: (eventId: string, message: unknown) => Promise<void>): Promise<void>;
}

/**
 * Who a 2025-era request's caller is, from its verified token and its HTTP request: the app's
 * `principalOf` (default: `defaultPrincipalOf` of the token, as for calls; none without a token).
 */
export type SessionPrincipalOf = (authInfo: AuthInfo | undefined, request: EntryRequest) => string | undefined;

const defaultSessionPrincipal: SessionPrincipalOf = (authInfo) => defaultPrincipalOf(authInfo);

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  /** Its SDK server (what the front lane reads of the session). */
  readonly server: Server;
  /** The protocol version negotiated at initialize. */
  readonly version: () => string | undefined;
  /** Its transport's event store (the front lane stores its calls' streams there too). */
  readonly eventStore: EventStore;
  readonly close: () => Promise<void>;
  /** Who opened it (the principal of its initialize): a session serves no one else. */
  readonly owner: string | undefined;
  /** Whose quota it counts against: the owner, else the remote address it was opened from. */
  readonly quotaKey: string;
  timer: NodeJS.Timeout | undefined;
  /** POSTs whose response has not ended yet: a session with none is idle, and may make room for a new one. */
  inFlight: number;
  /** When it was last used, in the registry's own order (larger is later). */
  lastUsed: number;
}

/**
 * Sessions for 2025-era clients on HTTP: one SDK transport and one server per session,
 * so a session has a live channel (the standalone GET stream, server→client requests).
 * Idle sessions expire; unknown or deleted ones get 404; their number is bounded. A session
 * is bound to the principal of the caller who opened it (`principalOf`), and answers no other.
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, Session>();
  private readonly idleTimeoutMs: number;
  private readonly maxSessions: number;
  private readonly maxPerCaller: number;
  /** Open sessions by quota key (opened, or being opened). */
  private readonly perCaller = new Map<string, number>();
  private uses = 0;
  private closed = false;

  constructor(
    private readonly factory: McpServerFactory,
    private readonly options: SessionOptions = {},
    private readonly principalOf: SessionPrincipalOf = defaultSessionPrincipal,
    /** The front lane (`frontLane: true`): a session's `tools/call` it takes is served there, counted in flight as any POST. */
    private readonly lane?: SessionLane
  ) {
    this.idleTimeoutMs = options.idleTimeoutMs ?? 30 * 60_000;
    this.maxSessions = options.maxSessions ?? 1000;
    this.maxPerCaller = options.maxSessionsPerCaller ?? 20;
  }

  /** Open sessions now. */
  get size(): number {
    return this.sessions.size;
  }

  async handle(request: EntryRequest, parsedBody: unknown, authInfo: AuthInfo | undefined): Promise<Response> {
    if (this.closed) return shuttingDown();
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId) {
      const session = this.sessions.get(sessionId);
      if (!session) return (await this.resumeElsewhere(request, sessionId, authInfo)) ?? sessionNotFound();
      // Another caller's session is answered as if it did not exist: a session id is not a credential.
      if (session.owner !== this.principalOf(authInfo, request)) return sessionNotFound();
      this.touch(sessionId, session);
      const batch = batchRefusal(parsedBody, session.version());
      if (batch) return batch;
      if (request.method === 'GET' && this.lane) {
        const resumed = await this.lane.resume(request, this.laneSession(sessionId, session));
        if (resumed) return resumed;
      }
      if (request.method !== 'POST') return session.transport.handleRequest(request.web(), { parsedBody, authInfo });
      const laned = this.lane?.serve(request, parsedBody, authInfo, this.laneSession(sessionId, session));
      if (laned) return this.inFlight(session, () => laned);
      return this.inFlight(session, () => session.transport.handleRequest(request.web(), { parsedBody, authInfo }));
    }
    if (request.method !== 'POST' || !isInitializeRequest(parsedBody)) return sessionRequired();
    if (this.sessions.size >= this.maxSessions) return tooManySessions(this.maxSessions);
    const owner = this.principalOf(authInfo, request);
    const quotaKey = owner ?? (remoteAddressOf(request) !== undefined ? `address:${remoteAddressOf(request)}` : 'anonymous');
    if ((this.perCaller.get(quotaKey) ?? 0) >= this.maxPerCaller) {
      if (!(await this.makeRoom(quotaKey))) return tooManySessionsForCaller(this.maxPerCaller);
      if (this.closed) return shuttingDown();
    }
    return this.open(request, parsedBody, authInfo, owner, quotaKey);
  }

  /** What the front lane knows of a session. */
  private laneSession(id: string, session: Session): LaneSession {
    return {
      id,
      server: session.server,
      version: session.version(),
      eventStore: session.eventStore,
      retryIntervalMs: this.options.retryIntervalMs ?? 1000
    };
  }

  /** Ends the caller's least recently used session that has no request in flight; whether there was one. */
  private async makeRoom(quotaKey: string): Promise<boolean> {
    let oldest: [string, Session] | undefined;
    for (const entry of this.sessions) {
      const session = entry[1];
      if (session.quotaKey === quotaKey && session.inFlight === 0 && (!oldest || session.lastUsed < oldest[1].lastUsed)) oldest = entry;
    }
    if (!oldest) return false;
    const [id, session] = oldest;
    clearTimeout(session.timer);
    this.forget(id, session);
    await session.close();
    return true;
  }

  /** Runs a POST of the session, counted in flight until its response ends (an event stream: until it closes). */
  private async inFlight(session: Session, handle: () => Promise<Response>): Promise<Response> {
    session.inFlight += 1;
    let counted = true;
    try {
      const response = onResponseEnd(await handle(), () => (session.inFlight -= 1));
      counted = false;
      return response;
    } finally {
      if (counted) session.inFlight -= 1;
    }
  }

  /** Closes every session. */
  async close(): Promise<void> {
    this.closed = true;
    for (const [id, session] of this.sessions) {
      clearTimeout(session.timer);
      this.lane?.closeSession(id);
    }
    await Promise.allSettled([...this.sessions.values()].map((session) => session.close()));
    this.sessions.clear();
    this.perCaller.clear();
  }

  private async open(
    entry: EntryRequest,
    parsedBody: unknown,
    authInfo: AuthInfo | undefined,
    owner: string | undefined,
    quotaKey: string
  ): Promise<Response> {
    const request = entry.web();
    const server = await this.factory({ era: 'legacy', authInfo, requestInfo: request });
    const eventStore = this.options.eventStore?.() ?? new BoundedSessionEventStore();
    const protocol = 'server' in server ? server.server : server;
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore,
      retryInterval: this.options.retryIntervalMs ?? 1000,
      onsessioninitialized: (id) => {
        let closing: Promise<void> | undefined;
        const session: Session = {
          transport,
          server: protocol,
          version: () => protocol.getNegotiatedProtocolVersion(),
          eventStore,
          timer: undefined,
          owner,
          quotaKey,
          inFlight: 0,
          lastUsed: 0,
          close: () => (closing ??= Promise.allSettled([transport.close(), server.close()]).then(() => undefined))
        };
        this.sessions.set(id, session);
        // A shared event store learns whose session its events are (another instance may resume them).
        (eventStore as { bindSession?: (sessionId: string, owner: string | undefined) => void }).bindSession?.(id, owner);
        this.perCaller.set(quotaKey, (this.perCaller.get(quotaKey) ?? 0) + 1);
        this.touch(id, session);
      }
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      const session = id ? this.sessions.get(id) : undefined;
      if (id && session) {
        clearTimeout(session.timer);
        this.forget(id, session);
        void server.close().catch(() => undefined);
      }
    };
    await server.connect(transport);
    return transport.handleRequest(request, { parsedBody, authInfo });
  }

  private touch(id: string, session: Session): void {
    session.lastUsed = ++this.uses;
    // The same timer started again (a request of a session touches it: no new timer each time).
    if (typeof session.timer?.refresh === 'function') return void session.timer.refresh();
    clearTimeout(session.timer);
    session.timer = setTimeout(() => {
      this.forget(id, session);
      void session.close();
    }, this.idleTimeoutMs);
    session.timer.unref();
  }

  /** A resuming GET for a session another instance holds: the events its stream missed (shared store), to its own caller only; then it ends. */
  private async resumeElsewhere(request: EntryRequest, sessionId: string, authInfo: AuthInfo | undefined): Promise<Response | undefined> {
    const lastEventId = request.headers.get('last-event-id');
    if (request.method !== 'GET' || !lastEventId || !this.options.resume) return undefined;
    const found = await this.options.resume(lastEventId).catch(() => undefined);
    if (!found || found.sessionId !== sessionId || found.owner !== this.principalOf(authInfo, request)) return undefined;
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        try {
          await found.replay(async (eventId, message) =>
            controller.enqueue(encoder.encode(`id: ${eventId}\nevent: message\ndata: ${JSON.stringify(message)}\n\n`))
          );
        } catch {
          // Expired meanwhile: the stream ends with what it had.
        }
        controller.close();
      }
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform' } });
  }

  /** A session leaves the registry (closed or idle): its place and its caller's are free. */
  private forget(id: string, session: Session): void {
    if (!this.sessions.delete(id)) return;
    this.lane?.closeSession(id);
    const left = (this.perCaller.get(session.quotaKey) ?? 1) - 1;
    if (left <= 0) this.perCaller.delete(session.quotaKey);
    else this.perCaller.set(session.quotaKey, left);
  }
}
