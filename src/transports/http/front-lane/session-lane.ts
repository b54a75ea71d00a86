import {
  PROTOCOL_VERSION_META_KEY,
  isInputRequiredResult,
  type CallToolResult,
  type ClientCapabilities,
  type EventStore,
  type Server
} from '@modelcontextprotocol/server';
import type { ServedSurfaces } from '../../server-factory';
import { channelOf } from '../../server-factory';
import type { CallRequest, LogSend, ProgressSend } from '../../../types/request';
import { isPlainJsonObject } from '../../../wire/own-properties';
import { remoteAddressOf } from '../connection-facts';
import type { EntryRequest } from '../entry-request';
import { streamInUse } from '../protocol-refusals';
import { LaneAnswer, type LaneEvents } from './lane-stream';
import { thrownAsWireError } from '../../../errors/sdk-seam-errors';
import { checkedToolResult } from './result-check';

/** What the lane knows of the 2025-era session a request is on (the session registry gives it, once it has found the session for its caller). */
export interface LaneSession {
  /** The session's id. */
  readonly id: string;
  /** The session's SDK server: its client's capabilities, its log level, its result projection. */
  readonly server: Server;
  /** The protocol version negotiated at initialize. */
  readonly version: string | undefined;
  /** The session's event store (its transport's): with it, a lane call's stream is resumable; without, a dropped connection cancels the call. */
  readonly eventStore?: EventStore;
  /** The reconnection delay the session's priming events suggest (`SessionOptions.retryIntervalMs`). */
  readonly retryIntervalMs?: number;
}

/** How many calls the lane served, and how many it left to the normal path (a diagnostic: tests read it). */
export interface LaneCounts {
  /** Calls the lane served. */
  served: number;
  /** Requests on a session it left to the normal path (every method but the `tools/call`s it took). */
  passed: number;
}

type Json = Record<string, unknown>;

/** What the SDK's response to a cancelled request is: none (the stream ends without it). */
const DROPPED: Promise<void> = Promise.resolve();

/**
 * The front fast lane of a 2025-era session (`frontLane: true`): a `tools/call` on a session is
 * served here, straight from the parsed body, through the app's own call path (`app.callTool`:
 * the tool's whole chain, its queue, bounds, scopes, locks, errors and logs), without the SDK
 * server's per-request work: no transport request bookkeeping, no zod parse of the message and
 * its params, no request context. The answer is one JSON body when the call's response is its
 * first message (within a second), else an SSE stream of its progress and log messages, then its
 * response, as the SDK's transport writes one (see `lane-stream.ts`).
 *
 * It is decided per request, before anything runs, and anything it does not take goes the normal
 * way (`serve` answers undefined): a request that is not a well-formed `tools/call` (the normal
 * path answers its -32602 or -32600), a tool the app does not list, a call with a task, a header
 * that is not the session's negotiated version or an `Accept` that does not admit SSE, a caller with
 * a token (auth), an app whose telemetry records (its spans are the SDK handler's), and a session
 * whose client declared elicitation, sampling or roots: such a client can be asked mid-call, and
 * those requests need the SDK server's live channel. For every other client a tool's question is
 * answered as the normal path answers it (nothing deliverable: the same `InputChannel`).
 *
 * Kept the same: the result projection (`projectCallToolResult`) and its check against the spec's
 * result schema (`result-check.ts`), the error codes and messages
 * (as the SDK encodes a thrown error), the log level filter of the session, progress dropped while
 * the client does not read, and resumability: where the session has an event store (every session
 * of the registry has one), a lane call's SSE stream is stored and resumed as the normal path's
 * (`lane-stream.ts`): the transport's priming event, an id from the session's store on every
 * event, a GET with `Last-Event-ID` naming the stream replays what came after it and carries the
 * rest of the call (`resume`). A dropped connection is not a cancellation (the 2025-11-25
 * transport): the call runs on and its events are stored, bounded by the store's ring, until it
 * ends, its client cancels it, or its session closes. Only a connection that drops before any
 * event with an id went out (a call inside its JSON window, or a session without a store)
 * cancels the call: its client holds nothing to resume with. Cancelling: the client's
 * `notifications/cancelled` for a lane call is taken here (the call's signal aborts, the stream
 * ends without a response, as the SDK does), connected or not. A tool's `ctx.closeStream` is
 * given where the SDK gives it (a store, and a client of 2025-11-25 or later): it closes the
 * connection, not the call, and the client resumes.
 */
export class SessionLane {
  /** Lane calls in flight, by session and JSON-RPC id: what a `notifications/cancelled` names. */
  private readonly running = new Map<string, AbortController>();
  /** The resumable streams of lane calls in flight, by session and stream id: what a `Last-Event-ID` names. */
  private readonly streams = new Map<string, LaneAnswer>();
  constructor(
    private readonly surfaces: () => ServedSurfaces,
    /** The counts it adds to (shared with the 2026-07-28 lane: one diagnostic for the endpoint). */
    readonly counts: LaneCounts = { served: 0, passed: 0 },
    /**
     * `'json'`: a response that comes first is answered as one JSON body, and a connection that drops
     * before an event with an id went out cancels the call (the gateway's form: the least work a
     * call). `'stream'`: every answer is an SSE stream opened at once, its priming event first, and a
     * dropped connection never cancels a call, as on the normal path (an app's form).
     */
    private readonly answers: 'json' | 'stream' = 'json'
  ) {}

  /** Serves `body` on `session` when the lane takes it; undefined: the normal path serves it. */
  serve(request: EntryRequest, body: unknown, authInfo: unknown, session: LaneSession): Promise<Response> | undefined {
    if (authInfo !== undefined || !isPlainJsonObject(body)) return undefined;
    const message = body as Json;
    if (message.jsonrpc !== '2.0' || typeof message.method !== 'string') return undefined;
    if (message.method === 'notifications/cancelled') return this.cancel(message, session);
    if (message.method !== 'tools/call') return this.pass();
    const call = this.callOf(request, message, session);
    if (!call) return this.pass();
    this.counts.served++;
    return this.run(request, call, session);
  }

  /**
   * A GET with `Last-Event-ID` on `session`: when the id names the stream of a lane call still in
   * flight, its replay and the rest of the call (409 while another connection carries it, as the
   * SDK's transport answers); undefined for anything else (the normal path serves it: the SDK's
   * transport replays the stored events of a lane call that has ended, the response among them).
   */
  async resume(request: EntryRequest, session: LaneSession): Promise<Response | undefined> {
    const lastEventId = request.headers.get('last-event-id');
    const store = session.eventStore;
    if (!lastEventId || !store?.getStreamIdForEventId || this.streams.size === 0) return undefined;
    if (!(request.headers.get('accept') ?? '').includes('text/event-stream')) return undefined;
    const version = request.headers.get('mcp-protocol-version');
    if (version !== null && version !== session.version) return undefined;
    const streamId = await store.getStreamIdForEventId(lastEventId).catch(() => undefined);
    const answer = streamId === undefined ? undefined : this.streams.get(keyOf(session.id, streamId));
    if (!answer || answer.ended) return undefined;
    return answer.connected ? streamInUse() : answer.resume(request, lastEventId);
  }

  /** The session closed (deleted, expired, or the endpoint closing): its lane calls are cancelled, as the SDK server aborts its handlers. */
  closeSession(sessionId: string): void {
    const prefix = `${sessionId} `;
    for (const [key, running] of this.running) {
      if (key.startsWith(prefix)) running.abort(new Error('The session was closed.'));
    }
  }

  /** The normal path serves it (counted). */
  private pass(): undefined {
    this.counts.passed++;
    return undefined;
  }

  /** A client's cancellation of a lane call: its signal aborts, and the notification is acknowledged (202), as the SDK does. */
  private cancel(message: Json, session: LaneSession): Promise<Response> | undefined {
    if ('id' in message || !isPlainJsonObject(message.params)) return undefined;
    const requestId = (message.params as Json).requestId;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return undefined;
    const running = this.running.get(keyOf(session.id, requestId));
    if (!running) return undefined;
    const reason = (message.params as Json).reason;
    running.abort(new Error(typeof reason === 'string' ? reason : 'The call was cancelled by its client.'));
    return Promise.resolve(new Response(null, { status: 202 }));
  }

  /** What the lane runs for a `tools/call`, when it takes the request at all. */
  private callOf(request: EntryRequest, message: Json, session: LaneSession): LaneCall | undefined {
    const id = message.id;
    if (typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id))) return undefined;
    const params = message.params;
    if (!isPlainJsonObject(params)) return undefined;
    const { name, arguments: args, _meta: meta } = params as Json;
    if (typeof name !== 'string' || 'task' in (params as object)) return undefined;
    if (args !== undefined && !isPlainJsonObject(args)) return undefined;
    if (meta !== undefined && !isPlainJsonObject(meta)) return undefined;
    const token = meta === undefined ? undefined : (meta as Json).progressToken;
    if (token !== undefined && typeof token !== 'string' && typeof token !== 'number') return undefined;
    if (meta !== undefined && PROTOCOL_VERSION_META_KEY in (meta as object)) return undefined;
    // The transport's own checks of a session's POST, which the lane does not repeat otherwise.
    const accept = request.headers.get('accept') ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
    if (session.version === undefined || request.headers.get('mcp-protocol-version') !== session.version) return undefined;
    const { app, telemetry } = this.surfaces();
    if (telemetry !== undefined && !telemetry.idle) return undefined;
    if (app.toolInputSchema(name) === undefined) return undefined;
    const capabilities = session.server.getClientCapabilities();
    if (!capabilities || capabilities.elicitation !== undefined || capabilities.sampling !== undefined || capabilities.roots !== undefined)
      return undefined;
    return { id, name, args: args as Json | undefined, meta: meta as Json | undefined, token, capabilities };
  }

  /** Runs the call through the app and streams its answer. */
  private run(request: EntryRequest, call: LaneCall, session: LaneSession): Promise<Response> {
    const { app, live } = this.surfaces();
    const server = session.server;
    const key = keyOf(session.id, call.id);
    const abort = new AbortController();
    const events = eventsOf(session);
    const streamed = this.answers === 'stream';
    const stream = new LaneAnswer(session.id, abort.signal, request, events, !streamed);
    // A dropped connection cancels a JSON-window call only when its client holds no event id to come back with; a
    // streamed one, never (the SDK's transport lets its handler run on).
    const gone = (): void =>
      streamed || stream.resumable ? stream.detach(request) : abort.abort(new Error('The client went away.'));
    if (request.signal.aborted) gone();
    else request.signal.addEventListener('abort', gone, { once: true });
    this.running.set(key, abort);
    const streamKey = events === undefined ? undefined : keyOf(session.id, events.streamId);
    if (streamKey !== undefined) this.streams.set(streamKey, stream);
    const token = call.token;
    const sendProgress: ProgressSend | undefined =
      token === undefined
        ? undefined
        : (progress, message, total) =>
            stream.congested
              ? DROPPED
              : stream.send({ jsonrpc: '2.0', method: 'notifications/progress', params: progressParams(token, progress, total, message) });
    const sendLog: LogSend = (level, data, logger) =>
      // The session's level (`logging/setLevel`, recorded by the framework's handler beside the SDK's), as `ctx.mcpReq.log` filters.
      live.isBelowLevel(server, level)
        ? DROPPED
        : stream.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level, data, logger } });
    const served: CallRequest = {
      signal: abort.signal,
      requestId: call.id,
      ...(call.meta !== undefined ? { meta: call.meta } : {}),
      // The web `Request` is built if something reads it (a `principalOf`, a `contextFactory`), not for every call.
      get httpRequest() {
        return request.web();
      },
      remoteAddress: remoteAddressOf(request),
      sessionId: session.id,
      era: 'legacy',
      clientCapabilities: call.capabilities,
      sendLog,
      inputChannel: channelOf(call.capabilities, 'legacy'),
      // As the SDK gives `closeSSE`: where the stream is resumable and its client reconnects on a priming event.
      ...(events?.priming ? { closeStream: () => stream.closeConnection() } : {}),
      subject: call.name,
      ...(call.args !== undefined ? { arguments: call.args } : {}),
      ...(sendProgress ? { sendProgress } : {})
    };
    void Promise.resolve()
      .then(() => app.callTool(served))
      .then((result) => {
        if (abort.signal.aborted) return;
        // Projected and checked as the SDK's server does (an app's handler may return any `content`): a misfit is its -32602.
        const sent =
          isInputRequiredResult(result) || (result as Json).resultType === 'task'
            ? result
            : checkedToolResult(server.projectCallToolResult(result as CallToolResult, app.toolOutputSchema(call.name)) as Json);
        // In the order the SDK's server writes a result response (an error's: jsonrpc, id, error).
        stream.send({ result: sent, jsonrpc: '2.0', id: call.id });
      })
      .catch((error: { code?: unknown; message?: string; data?: unknown }) => {
        if (abort.signal.aborted) return;
        stream.send({ jsonrpc: '2.0', id: call.id, error: thrownAsWireError(error) });
      })
      .finally(() => {
        this.running.delete(key);
        request.signal.removeEventListener('abort', gone);
        stream.end();
        // Kept findable until its last events are written (a resume meanwhile replays them); after, the SDK's transport replays them from the store.
        if (streamKey !== undefined) void stream.flushed.then(() => this.streams.delete(streamKey));
      });
    return stream.response;
  }
}

/** A `tools/call` the lane takes. */
interface LaneCall {
  readonly id: string | number;
  readonly name: string;
  readonly args: Json | undefined;
  readonly meta: Json | undefined;
  readonly token: string | number | undefined;
  readonly capabilities: ClientCapabilities;
}

/** What makes a lane call's stream resumable on `session`: its event store (none: not resumable). */
function eventsOf(session: LaneSession): LaneEvents | undefined {
  if (!session.eventStore) return undefined;
  return {
    store: session.eventStore,
    streamId: crypto.randomUUID(),
    // As the SDK's `supportsEmptySSEData`: a negotiated version (so a supported one) of 2025-11-25 or later.
    priming: session.version !== undefined && session.version >= '2025-11-25',
    retryIntervalMs: session.retryIntervalMs
  };
}

/** A lane call's key: its session and its id (a number and a string of the same digits are two ids). */
function keyOf(sessionId: string, id: string | number): string {
  return `${sessionId} ${typeof id} ${id}`;
}

/** A progress notification's params, as `progressSender` builds them. */
function progressParams(progressToken: string | number, progress: number, total: number | undefined, message: string | undefined): Json {
  if (total === undefined) return message === undefined ? { progressToken, progress } : { progressToken, progress, message };
  return message === undefined ? { progressToken, progress, total } : { progressToken, progress, total, message };
}
