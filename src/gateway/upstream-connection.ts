import { context, propagation } from '@opentelemetry/api';
import {
  CLIENT_CAPABILITIES_META_KEY,
  Client,
  LOG_LEVEL_META_KEY,
  StreamableHTTPClientTransport,
  type ClientCapabilities,
  type LoggingLevel,
  type LoggingMessageNotificationParams,
  type JSONRPCMessage,
  type McpSubscription,
  type Tool,
  type Transport
} from '@modelcontextprotocol/client';
import { UpstreamError } from '../errors';
import { describeTarget, type ResolvedTarget } from './upstream-target';
import { UpstreamCall, type UpstreamAnswer, type UpstreamAsk } from './upstream-call';
import { callThroughRounds } from './upstream-rounds';
import { CallRouter } from './call-router';
import { UpstreamFetch } from './upstream-fetch';
import { FORWARDED_RESULT } from './upstream-result';
import { answered, forwardedCapabilities, upstreamFailure, upstreamTransport } from './upstream-wire';
import { declaresTasks } from '../tasks/task-record';
import { RawExchange } from './tasks/raw-exchange';
import { callAcceptingTasks, taskEnvelope } from './tasks/task-call';
import { ListingBudget } from './guards/listing-guard';
import { NoiseGuard } from './guards/noise-guard';
import { UPSTREAM_LIMITS } from './guards/limits';

/** The protocol era a gateway speaks to its upstream: `'2025'` (initialize, a live channel), `'2026'` (2026-07-28), or `'auto'` (the SDK's negotiation). */
export type UpstreamEra = '2025' | '2026' | 'auto';

/** What a connection tells its gateway. */
export interface ConnectionEvents {
  /** The upstream's tool, prompt or resource list changed. */
  readonly toolsChanged: () => void;
  /** A resource the gateway subscribed to upstream changed (its upstream URI). */
  readonly resourceUpdated: (uri: string) => void;
  /** The connection closed (the upstream died or hung up); `reason` says how. */
  readonly closed: (reason: Error) => void;
  /** Diagnostics (stderr by default: never stdout). */
  readonly log: (message: string) => void;
  /** A call found the upstream unreachable (its HTTP endpoint refused the connection): the upstream is down, though no channel closed. */
  readonly unreachable?: (error: Error) => void;
  /**
   * A log message that belongs to no call (the upstream logged between calls, or on its own
   * stream); `ambiguous` when calls were in flight over a connection that cannot say whose it is
   * (stdio), so it may be one call's.
   */
  readonly logged?: (message: LoggingMessageNotificationParams, ambiguous: boolean) => void;
  /**
   * A request of the client that no call's context names: asked first with `why` undefined
   * (before the one call in flight is guessed for it), then, when no call can be named, with
   * `why`. Answered by the returned promise, or left to the call or refused (undefined).
   */
  readonly outsideCall?: (ask: UpstreamAsk, why: string | undefined) => Promise<UpstreamAnswer> | undefined;
}

/** A request's upper bound the SDK holds the gateway to: long, since a question to a person may be pending (the park bounds that). */
const UPSTREAM_REQUEST_TIMEOUT_MS = 24 * 60 * 60 * 1000;
const STDERR_KEPT = 2000;

/**
 * One connected SDK v2 client to the upstream: it forwards calls (each an {@link UpstreamCall}),
 * routes the upstream's progress to its call by `progressToken` as the messages arrive (in
 * order, before the response that follows them), and routes the upstream's questions to the
 * call that caused them. A 2026-07-28 upstream's questions come inside the call's own
 * `input_required` result, so the call is known exactly; a 2025-era upstream sends
 * `elicitation/create` on its channel with nothing that names the call: over HTTP the call's own
 * response stream names it (one on the standalone stream is refused); over stdio it goes to the
 * one call in flight that is not already waiting for an answer, and is cancelled when there is
 * more than one (an ambiguity the gateway refuses to guess). What the upstream sends past the
 * bounds of guards/limits.ts breaks the connection off, naming the bound. When the connection closes, every call
 * in flight fails with a message naming the upstream.
 */
export class UpstreamConnection {
  private readonly calls: CallRouter;
  private nextToken = 0;
  private closedBy: Error | undefined;
  private stderr = '';
  /** 2026-07-28: the URIs watched, and the listen stream that carries their updates. */
  private readonly watched = new Set<string>();
  private listening: McpSubscription | undefined;
  private http: StreamableHTTPClientTransport | undefined;
  /** The level last sent upstream with `logging/setLevel`. */
  private levelSent: LoggingLevel | undefined;
  /** The requests the SDK client cannot make (a call that may become a task, `tasks/*`): see `RawExchange`. */
  private raw: RawExchange | undefined;
  /** What the upstream sends that belongs to nobody: logged a few times, then counted (see guards/). */
  private readonly noise: NoiseGuard;
  /** Why the gateway broke the connection off (a bound the upstream broke), when it did. */
  private brokenBy: Error | undefined;
  /** The tool listing being read, counted page by page. */
  private readonly listing = new ListingBudget();
  /** An HTTP upstream's client: its own keep-alive sockets, ended when the connection closes. */
  private readonly fetcher: UpstreamFetch | undefined;

  private constructor(
    private readonly client: Client,
    private readonly target: ResolvedTarget,
    private readonly events: ConnectionEvents
  ) {
    // Over stdio and HTTP+SSE every message comes on one stream, naming no request.
    this.calls = new CallRouter(target.kind === 'stdio' || target.sse === true);
    this.noise = new NoiseGuard(events.log);
    this.fetcher = target.kind === 'http' && !target.sse ? new UpstreamFetch() : undefined;
  }

  /**
   * Connects to the target in `era`; a failure names the target and what its stderr said.
   * `signal` abandons a connection still being made (an upstream that never answers `initialize`
   * is stopped, rather than kept until the SDK's own timeout).
   */
  static async open(target: ResolvedTarget, era: UpstreamEra, events: ConnectionEvents, signal?: AbortSignal): Promise<UpstreamConnection> {
    const client = new Client(
      { name: 'mcpfusion-gateway', version: '1.0.0' },
      {
        // Every kind of request a server may make of its client: each is forwarded to the front client that made the call.
        capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
        // The SDK gathers a listing's pages itself: its cap on pages is the gateway's (bytes and tools are counted in `tap`).
        listMaxPages: UPSTREAM_LIMITS.maxListingPages,
        // An HTTP+SSE server predates 2026-07-28: it is spoken to in the 2025 era whatever `era` says.
        versionNegotiation: {
          mode: era === '2025' || (target.kind === 'http' && target.sse) ? 'legacy' : era === '2026' ? { pin: '2026-07-28' } : 'auto'
        },
        listChanged: {
          tools: { autoRefresh: false, debounceMs: 0, onChanged: () => events.toolsChanged() },
          prompts: { autoRefresh: false, debounceMs: 0, onChanged: () => events.toolsChanged() },
          resources: { autoRefresh: false, debounceMs: 0, onChanged: () => events.toolsChanged() }
        }
      }
    );
    const connection = new UpstreamConnection(client, target, events);
    client.setRequestHandler(
      'elicitation/create',
      async (request) => answered(await connection.question({ method: 'elicitation/create', params: request.params })) as never
    );
    client.setRequestHandler(
      'sampling/createMessage',
      async (request) => answered(await connection.question({ method: 'sampling/createMessage', params: request.params })) as never
    );
    client.setRequestHandler('roots/list', async () => answered(await connection.question({ method: 'roots/list' })) as never);
    client.setNotificationHandler('notifications/resources/updated', (notification) => events.resourceUpdated(notification.params.uri));
    // What `tap` could give to no call: the upstream's logging between calls (or on its own stream).
    client.setNotificationHandler('notifications/message', (notification) =>
      events.logged?.(notification.params, connection.target.kind === 'stdio' && connection.calls.live > 1)
    );
    const transport = connection.transport();
    if (transport instanceof StreamableHTTPClientTransport) connection.http = transport;
    const abandon = (): void => void client.close().catch(() => undefined);
    signal?.addEventListener('abort', abandon, { once: true });
    try {
      if (signal?.aborted) throw new Error('the gateway closed');
      await client.connect(transport);
    } catch (error) {
      await client.close().catch(() => undefined);
      connection.fetcher?.close();
      const tail = connection.stderr.trim() ? `\n${connection.stderr.trim()}` : '';
      throw new UpstreamError(`Could not connect to the upstream MCP server ${describeTarget(target)}: ${(error as Error).message}${tail}`);
    } finally {
      signal?.removeEventListener('abort', abandon);
    }
    connection.raw = new RawExchange(transport, target.kind === 'stdio');
    connection.tap(transport);
    client.onerror = (error) => connection.noticed(error);
    client.onclose = () => connection.lost();
    return connection;
  }

  /** Whether calls are in flight on it (waiting for an answer included). */
  get busy(): boolean {
    return this.calls.size > 0;
  }

  /** Whether the connection is still open. */
  get open(): boolean {
    return this.closedBy === undefined;
  }

  /** Whether the upstream speaks 2026-07-28 (its questions come back as `input_required` rounds). */
  get modern(): boolean {
    return this.client.getProtocolEra() === 'modern';
  }

  /** The era the upstream speaks, as negotiated. */
  get protocolVersion(): string | undefined {
    return this.client.getNegotiatedProtocolVersion();
  }

  /** What the upstream serves besides tools (its declared capabilities). */
  get capabilities(): { resources: boolean; subscribe: boolean; prompts: boolean; completions: boolean } {
    const declared = this.client.getServerCapabilities() ?? {};
    return {
      resources: declared.resources !== undefined,
      subscribe: declared.resources?.subscribe === true,
      prompts: declared.prompts !== undefined,
      completions: declared.completions !== undefined
    };
  }

  /**
   * A request that is not a tool call (a listing, a read, a prompt, a completion), sent with
   * `signal`; its failure is an error naming the upstream (the app's boundary maps it).
   */
  async request<T>(send: (client: Client) => Promise<T>): Promise<T> {
    if (this.closedBy) throw this.unavailable(this.closedBy);
    try {
      return await this.calls.runOutside(() => send(this.client));
    } catch (error) {
      throw this.closedBy ? this.unavailable(this.closedBy) : upstreamFailure(error);
    }
  }

  /**
   * Watches an upstream resource for updates (`notifications/resources/updated`): a 2025-era
   * upstream through `resources/subscribe`; a 2026-07-28 one through a `subscriptions/listen`
   * stream naming every URI watched (opened again, wider, for each new one). Failures are the
   * caller's to ignore: the resource is still served, its updates are not forwarded.
   */
  async watchResource(uri: string): Promise<void> {
    if (this.client.getProtocolEra() !== 'modern') {
      await this.request((client) => client.subscribeResource({ uri }));
      return;
    }
    this.watched.add(uri);
    const previous = this.listening;
    this.listening = await this.request((client) => client.listen({ resourceSubscriptions: [...this.watched] }));
    await previous?.close();
  }

  /**
   * Tells a 2025-era upstream that declared logging the level to log at (`logging/setLevel`),
   * unless it was the last one sent. A 2026-07-28 upstream is told per request (every level: the
   * front's own level filters) and logs nothing between requests, so it is not told.
   */
  async setLevel(level: LoggingLevel): Promise<void> {
    if (this.modern || this.client.getServerCapabilities()?.logging === undefined || this.levelSent === level) return;
    this.levelSent = level;
    await this.request((client) => client.setLoggingLevel(level));
  }

  /** Whether the upstream speaks 2026-07-28 and offers the tasks extension (`capabilities.extensions`). */
  get offersTasks(): boolean {
    return this.modern && declaresTasks(this.client.getServerCapabilities());
  }

  /**
   * A `tasks/*` request to the upstream (raw: see `RawExchange`), the extension declared; its
   * JSON-RPC error rejects as an `UpstreamRpcError` (its code kept), a closed connection as the
   * upstream being unavailable.
   */
  async taskRequest(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
    if (this.closedBy || !this.raw) throw this.unavailable(this.closedBy ?? new Error('the connection is not open'));
    const envelope = taskEnvelope(this.protocolVersion ?? '2026-07-28', {});
    return this.raw.request(method, { ...params, _meta: envelope }, signal);
  }

  /**
   * A task status listen upstream (`subscriptions/listen` naming `taskIds`, raw): each
   * `notifications/tasks` on its stream goes to `status`; resolves when the upstream ends the
   * stream (every task followed is finished), rejects when `signal` aborts or the connection closes.
   */
  async listenToTasks(taskIds: readonly string[], signal: AbortSignal, status: (task: Record<string, unknown>) => void): Promise<void> {
    if (this.closedBy || !this.raw) throw this.unavailable(this.closedBy ?? new Error('the connection is not open'));
    const envelope = taskEnvelope(this.protocolVersion ?? '2026-07-28', {});
    await this.raw.listen({ notifications: { taskIds: [...taskIds] }, _meta: envelope }, signal, (notification) => {
      if (notification.method === 'notifications/tasks' && notification.params && typeof notification.params === 'object')
        status(notification.params as Record<string, unknown>);
    });
  }

  /** Every tool the upstream lists (all pages). */
  async listTools(): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await this.client.listTools(cursor ? { cursor } : undefined);
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor);
    } catch (error) {
      // A listing broken off at a bound (see `tap`) fails saying which.
      throw this.brokenBy ? this.unavailable(this.brokenBy) : error;
    }
    return tools;
  }

  /**
   * Starts a call upstream; its events arrive on the returned call. `front`: what the front
   * client declared; a 2026-07-28 upstream is told it per request (what the gateway forwards of
   * it: elicitation, sampling, roots), so that the upstream decides what the front client lacks
   * (-32021) exactly as it would for a client of its own.
   */
  start(name: string, args: Record<string, unknown>, front?: ClientCapabilities): UpstreamCall {
    if (this.closedBy) throw this.unavailable(this.closedBy);
    const token = `gw-${++this.nextToken}`;
    const call = new UpstreamCall(name, token);
    // The proxied call's trace context travels upstream (SEP-414: `traceparent` in `_meta`), where a registered propagator has one.
    const meta: Record<string, unknown> = { progressToken: token };
    // A 2026-07-28 upstream logs to a request only when asked: every level is asked for, the front's own level filters what it gets.
    if (this.client.getProtocolEra() === 'modern') meta[LOG_LEVEL_META_KEY] = 'debug';
    if (this.client.getProtocolEra() === 'modern' && front) meta[CLIENT_CAPABILITIES_META_KEY] = forwardedCapabilities(front);
    propagation.inject(context.active(), meta);
    this.calls.add(call);
    // A 2026-07-28 upstream's rounds pass through whole (their keys, several requests at once); a 2025-era one asks live.
    const modern = this.client.getProtocolEra() === 'modern';
    // A front client that accepts a task, before an upstream that offers them: sent raw (the SDK refuses a task result).
    const raw = front && declaresTasks(front) && this.offersTasks ? this.raw : undefined;
    if (raw && front) Object.assign(meta, taskEnvelope(this.protocolVersion ?? '2026-07-28', forwardedCapabilities(front)));
    this.calls
      .runIn(call, () =>
        raw
          ? callAcceptingTasks(raw, call, { name, arguments: args, _meta: meta })
          : modern
            ? callThroughRounds(this.client, call, { name, arguments: args, _meta: meta }, UPSTREAM_REQUEST_TIMEOUT_MS)
            : // One check of the result's shape (see FORWARDED_RESULT): the front chain checks the output schema.
              this.client.request({ method: 'tools/call', params: { name, arguments: args, _meta: meta } }, FORWARDED_RESULT, {
                signal: call.signal,
                timeout: UPSTREAM_REQUEST_TIMEOUT_MS
              })
      )
      .then(
        (result) => call.push({ kind: 'done', result: result as never }),
        (error: unknown) => {
          const unreachable = !this.closedBy && isUnreachable(error);
          const reason = this.closedBy ?? (unreachable ? new Error(networkReason(error)) : undefined);
          if (unreachable && reason) this.events.unreachable?.(reason);
          call.push({ kind: 'failed', error: reason ? this.unavailable(reason) : upstreamFailure(error, name) });
        }
      )
      .finally(() => {
        this.calls.delete(call);
      });
    return call;
  }

  /** The upstream's 2025-era session id, where it gave one (HTTP). */
  get sessionId(): string | undefined {
    return this.http?.sessionId;
  }

  /**
   * Closes the connection (a spawned upstream is stopped). An upstream session is ended
   * (`DELETE`), so that it does not count against the gateway's sessions upstream until it expires.
   */
  async close(): Promise<void> {
    this.closedBy ??= new Error('the gateway closed');
    await this.listening?.close().catch(() => undefined);
    await this.http?.terminateSession().catch(() => undefined);
    await this.client.close().catch(() => undefined);
    this.fetcher?.close();
  }

  private transport(): Transport {
    return upstreamTransport(
      this.target,
      (chunk) => {
        this.stderr = (this.stderr + chunk).slice(-STDERR_KEPT);
      },
      this.fetcher?.fetch
    );
  }

  /**
   * Reads progress and log messages at the transport, before the SDK: the SDK hands progress to
   * its callback a microtask late, after a response that arrived in the same read (a stdio server
   * writes them together), so a call's last progress would follow its result. Here each is queued
   * on its call in arrival order, before the response is even parsed.
   */
  private tap(transport: Transport): void {
    const receive = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (this.raw?.takes(message)) return;
      if (this.overListed(message)) return;
      if (!this.calls.route(message)) receive?.(message, extra);
    };
  }

  /** Whether `message` is a tool-listing page past the listing's bounds: then the connection is broken off, and the page dropped. */
  private overListed(message: JSONRPCMessage): boolean {
    const result = (message as { result?: { tools?: unknown; nextCursor?: unknown } }).result;
    if (!result || !Array.isArray(result.tools)) return false;
    const over = this.listing.add(result.tools, result.nextCursor === undefined);
    if (over) this.breakOff(`${over}, more than the gateway keeps of one upstream`);
    return over !== undefined;
  }

  /** An upstream request of the client (a question, a sampling request, a roots listing), given to its call. */
  private question(ask: UpstreamAsk): Promise<UpstreamAnswer> {
    return this.calls.ask(
      ask,
      (why) => {
        this.noise.note('unrequested', `${describeTarget(this.target)} sent ${ask.method} while ${why}: it was refused.`);
        // A stream of requests no call made is hostile: past the burst, the upstream is disconnected (and retried with backoff).
        if (!this.noise.unrequested())
          this.breakOff(
            `it sent more than ${UPSTREAM_LIMITS.unrequestedBurst} requests no call made (sampling, elicitation or roots outside a call)`
          );
      },
      (why) => this.events.outsideCall?.(ask, why)
    );
  }

  /** The SDK's report of something it could not use (a line that is no JSON-RPC, a response to an id never sent, a message over the bound). */
  private noticed(error: Error): void {
    if (/ReadBuffer exceeded/.test(error.message)) {
      this.brokenBy ??= new Error(`it sent a message over ${UPSTREAM_LIMITS.maxMessageBytes} bytes`);
      return;
    }
    const first = error.message.replace(/\s+/g, ' ').slice(0, 200);
    // A message that is no valid JSON-RPC (the SDK's schema check says so), or an answer to an id never sent, is the upstream's noise.
    const unreadable = error.name === 'SyntaxError' || error.name === 'ZodError' || error.message.trimStart().startsWith('[');
    const kind = /unknown message ID|unknown.*token/i.test(first) ? 'unknown-id' : unreadable ? 'unreadable' : 'transport';
    this.noise.note(
      kind,
      kind === 'transport'
        ? `the connection to ${describeTarget(this.target)} reported: ${first}`
        : `${describeTarget(this.target)} sent something the gateway ignored: ${first}`
    );
  }

  /** Ends the connection because the upstream broke a bound; its calls fail naming `why`. */
  private breakOff(why: string): void {
    if (this.closedBy || this.brokenBy) return;
    this.brokenBy = new Error(why);
    this.events.log(`${describeTarget(this.target)} is disconnected: ${why}.`);
    void this.client.close().catch(() => undefined);
  }

  private lost(): void {
    if (this.closedBy) return;
    const tail = this.stderr.trim() ? ` (its last words: ${this.stderr.trim().split('\n').slice(-3).join(' / ')})` : '';
    this.closedBy = this.brokenBy ?? new Error(`the connection closed${tail}`);
    const error = this.unavailable(this.closedBy);
    this.calls.failAll(error);
    this.raw?.failAll(error);
    this.fetcher?.close();
    this.events.closed(this.closedBy);
  }

  private unavailable(reason: Error): UpstreamError {
    return new UpstreamError(
      `The upstream MCP server ${describeTarget(this.target)} is unavailable: ${reason.message}. The gateway reconnects on the next call; call the tool again.`
    );
  }
}

/** Network failures that say the endpoint is not there (no answer at all), through an error's causes. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET']);

/** Whether a failed request never reached a live upstream (its connection refused or reset). */
function isUnreachable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE.has(code)) return true;
  }
  return false;
}

/** The innermost reason of a network failure: `fetch failed (ECONNREFUSED)`. */
function networkReason(error: unknown): string {
  let code: string | undefined;
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const found = (e as { code?: unknown }).code;
    if (typeof found === 'string' && UNREACHABLE.has(found)) code = found;
  }
  return `${(error as Error).message ?? String(error)}${code ? ` (${code})` : ''}`;
}
