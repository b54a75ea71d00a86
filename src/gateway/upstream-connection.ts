import type { Client, ClientCapabilities, JSONRPCMessage, LoggingLevel, Tool, Transport } from '@modelcontextprotocol/client';
import { UpstreamError } from '../errors';
import { describeTarget, type ResolvedTarget } from './upstream-target';
import { UpstreamCall, type UpstreamAnswer, type UpstreamAsk } from './upstream-call';
import { CallRouter } from './call-router';
import { upstreamFailure } from './upstream-wire';
import { declaresTasks } from '../tasks/task-record';
import { RawExchange } from '../wire/raw-exchange';
import { listenToTaskStatus, requestTask } from './tasks/task-requests';
import { ConnectionGuard } from './guards/connection-guard';
import type { ConnectionEvents, UpstreamEra } from './upstream-events';
import { listAllTools, servedCapabilities, upstreamClient } from './upstream-client';
import { callFailure, unavailable } from './upstream-unreachable';
import { callMeta, sendCall } from './upstream-send';
import { ResourceWatch } from './resource-watch';
import { UpstreamChannel } from './upstream-channel';
import { directCallsOver, type DirectCalls } from './direct-call';
import { learnedBy } from './direct-modern';

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
  /** The upstream resources watched for updates. */
  private readonly watch = new ResourceWatch();
  /** The level last sent upstream with `logging/setLevel`. */
  private levelSent: LoggingLevel | undefined;
  /** The requests the SDK client cannot make (a call that may become a task, `tasks/*`): see `RawExchange`. */
  private raw: RawExchange | undefined;
  /** The bounds the upstream is held to (listings, noise, requests no call made): see guards/. */
  private readonly guard: ConnectionGuard;
  /** The transport side: the transport, the upstream's stderr, an HTTP upstream's session and sockets. */
  private readonly channel: UpstreamChannel;
  /** The SDK client the upstream is spoken to through (see upstream-client.ts). */
  private readonly client: Client;
  /** A 2025-era HTTP upstream's tool calls, sent by the gateway itself (see direct-call.ts). */
  private direct: DirectCalls | undefined;
  /** What the transport hands the gateway (see `tap`): also what a direct call's stream carries besides its answer. */
  private receive: ((message: JSONRPCMessage) => void) | undefined;

  private constructor(
    private readonly target: ResolvedTarget,
    era: UpstreamEra,
    private readonly events: ConnectionEvents
  ) {
    // Over stdio and HTTP+SSE every message comes on one stream, naming no request.
    this.calls = new CallRouter(target.kind === 'stdio' || target.sse === true);
    this.channel = new UpstreamChannel(target);
    this.client = upstreamClient(target, era, {
      question: (ask, requestId) => this.question(ask, requestId),
      changed: () => events.toolsChanged(),
      resourceUpdated: (uri) => events.resourceUpdated(uri),
      // Over stdio a log message names no call: with more than one in flight, it may be any one's.
      logged: (message) => events.logged?.(message, target.kind === 'stdio' && this.calls.live > 1)
    });
    this.guard = new ConnectionGuard({
      name: describeTarget(target),
      log: events.log,
      closed: () => this.closedBy !== undefined,
      disconnect: () => void this.client.close().catch(() => undefined)
    });
  }

  /**
   * Connects to the target in `era`; a failure names the target and what its stderr said.
   * `signal` abandons a connection still being made (an upstream that never answers `initialize`
   * is stopped, rather than kept until the SDK's own timeout).
   */
  static async open(target: ResolvedTarget, era: UpstreamEra, events: ConnectionEvents, signal?: AbortSignal): Promise<UpstreamConnection> {
    const connection = new UpstreamConnection(target, era, events);
    const client = connection.client;
    const transport = connection.channel.transport();
    const abandon = (): void => void client.close().catch(() => undefined);
    signal?.addEventListener('abort', abandon, { once: true });
    try {
      if (signal?.aborted) throw new Error('the gateway closed');
      await client.connect(transport);
    } catch (error) {
      await client.close().catch(() => undefined);
      connection.channel.release();
      const tail = connection.channel.stderrTail ? `\n${connection.channel.stderrTail}` : '';
      throw new UpstreamError(`Could not connect to the upstream MCP server ${describeTarget(target)}: ${(error as Error).message}${tail}`);
    } finally {
      signal?.removeEventListener('abort', abandon);
    }
    connection.raw = new RawExchange(transport, target.kind === 'stdio');
    connection.tap(transport);
    connection.direct = directCallsOver(target, connection.channel.httpClient, {
      transport,
      sessionId: connection.channel.sessionId,
      client,
      deliver: (call, message) => connection.calls.deliver(call, message, (delivered) => connection.receive?.(delivered)),
      noticed: (error) => connection.guard.noticed(error)
    });
    client.onerror = (error) => connection.guard.noticed(error);
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
    return servedCapabilities(this.client);
  }

  /**
   * A request that is not a tool call (a listing, a read, a prompt, a completion), sent with
   * `signal`; its failure is an error naming the upstream (the app's boundary maps it).
   */
  async request<T>(send: (client: Client) => Promise<T>): Promise<T> {
    if (this.closedBy) throw unavailable(this.target, this.closedBy);
    try {
      return await this.calls.runOutside(() => send(this.client));
    } catch (error) {
      throw this.closedBy ? unavailable(this.target, this.closedBy) : upstreamFailure(error);
    }
  }

  /**
   * Watches an upstream resource for updates (`notifications/resources/updated`): a 2025-era
   * upstream through `resources/subscribe`; a 2026-07-28 one through a `subscriptions/listen`
   * stream naming every URI watched (opened again, wider, for each new one). Failures are the
   * caller's to ignore: the resource is still served, its updates are not forwarded.
   */
  async watchResource(uri: string): Promise<void> {
    await this.watch.add(uri, this.client.getProtocolEra() === 'modern', this);
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
    return requestTask(this.openRaw(), this.protocolVersion ?? '2026-07-28', method, params, signal);
  }

  /**
   * A task status listen upstream (`subscriptions/listen` naming `taskIds`, raw): each
   * `notifications/tasks` on its stream goes to `status`; resolves when the upstream ends the
   * stream (every task followed is finished), rejects when `signal` aborts or the connection closes.
   */
  async listenToTasks(taskIds: readonly string[], signal: AbortSignal, status: (task: Record<string, unknown>) => void): Promise<void> {
    await listenToTaskStatus(this.openRaw(), this.protocolVersion ?? '2026-07-28', taskIds, signal, status);
  }

  /** The raw exchange of an open connection; a closed one is the upstream being unavailable. */
  private openRaw(): RawExchange {
    if (this.closedBy || !this.raw) throw unavailable(this.target, this.closedBy ?? new Error('the connection is not open'));
    return this.raw;
  }

  /** Every tool the upstream lists (all pages). */
  async listTools(): Promise<Tool[]> {
    try {
      return learnedBy(this.direct, await listAllTools(this.client));
    } catch (error) {
      // A listing broken off at a bound (see `tap`) fails saying which.
      throw this.guard.brokenBy ? unavailable(this.target, this.guard.brokenBy) : error;
    }
  }

  /**
   * Starts a call upstream; its events arrive on the returned call. `front`: what the front
   * client declared; a 2026-07-28 upstream is told it per request (what the gateway forwards of
   * it: elicitation, sampling, roots), so that the upstream decides what the front client lacks
   * (-32021) exactly as it would for a client of its own.
   */
  start(name: string, args: Record<string, unknown>, front?: ClientCapabilities): UpstreamCall {
    if (this.closedBy) throw unavailable(this.target, this.closedBy);
    const token = `gw-${++this.nextToken}`;
    const call = new UpstreamCall(name, token);
    // A front client that accepts a task, before an upstream that offers them: sent raw (the SDK refuses a task result).
    const raw = front && declaresTasks(front) && this.offersTasks ? this.raw : undefined;
    const meta = callMeta(
      token,
      this.client.getProtocolEra() === 'modern',
      front,
      raw ? (this.protocolVersion ?? '2026-07-28') : undefined
    );
    this.calls.add(call);
    const params = { name, arguments: args, _meta: meta };
    // An HTTP upstream's call goes out directly (see direct-call.ts, and direct-modern.ts for what stays with the SDK client in 2026-07-28).
    const direct = !raw && this.direct?.accepts(name) ? this.direct : undefined;
    // A direct call names its call in what it delivers (`CallRouter.deliver`); the SDK client's is told by its async context.
    (direct ? direct.send(call, params) : this.calls.runIn(call, () => sendCall(this.client, call, params, raw)))
      .then(
        (result) => call.push({ kind: 'done', result: result as never }),
        (error: unknown) =>
          call.push({ kind: 'failed', error: callFailure(this.target, name, error, this.closedBy, this.events.unreachable) })
      )
      .finally(() => {
        this.calls.delete(call);
      });
    return call;
  }

  /** The upstream's 2025-era session id, where it gave one (HTTP). */
  get sessionId(): string | undefined {
    return this.channel.sessionId;
  }

  /**
   * Closes the connection (a spawned upstream is stopped). An upstream session is ended
   * (`DELETE`), so that it does not count against the gateway's sessions upstream until it expires.
   */
  async close(): Promise<void> {
    this.closedBy ??= new Error('the gateway closed');
    await this.watch.close();
    await this.channel.endSession();
    await this.client.close().catch(() => undefined);
    this.channel.release();
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
      if (this.raw?.takes(message) || this.direct?.takes(message)) return;
      if (this.guard.overListed(message)) return;
      if (!this.calls.route(message)) receive?.(message, extra);
    };
    this.receive = (message) => transport.onmessage?.(message);
  }

  /** An upstream request of the client (a question, a sampling request, a roots listing), given to its call. */
  private question(ask: UpstreamAsk, requestId: string | number): Promise<UpstreamAnswer> {
    return this.calls.ask(
      ask,
      requestId,
      (why) => this.guard.unrequested(ask.method, why),
      (why) => this.events.outsideCall?.(ask, why)
    );
  }

  private lost(): void {
    if (this.closedBy) return;
    const stderr = this.channel.stderrTail;
    const tail = stderr ? ` (its last words: ${stderr.split('\n').slice(-3).join(' / ')})` : '';
    this.closedBy = this.guard.brokenBy ?? new Error(`the connection closed${tail}`);
    const error = unavailable(this.target, this.closedBy);
    this.calls.failAll(error);
    this.raw?.failAll(error);
    this.channel.release();
    this.events.closed(this.closedBy);
  }
}
