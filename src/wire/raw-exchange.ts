import { SUBSCRIPTION_ID_META_KEY, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';

/** A JSON-RPC error the server answered a raw request with (its code, message and data kept). */
export class UpstreamRpcError extends Error {
  /**
   * @param code - The JSON-RPC error code.
   * @param message - The error's message.
   * @param data - The error's `data`, when it has one.
   */
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown
  ) {
    super(message);
  }
}

interface Waiter {
  resolve(result: Record<string, unknown>): void;
  reject(error: unknown): void;
}

/**
 * Requests an SDK `Client` cannot make to a 2026-07-28 server, sent as they are over the
 * connection's own SDK transport: a `tools/call` that may be answered `resultType: "task"` and
 * the `tasks/*` requests of the tasks extension. Used by the gateway (its upstreams) and by the
 * terminal client (`call --task`, the inspector).
 *
 * Why not `client.request(…, resultSchema)`, checked against SDK 2.4:
 * - its 2026-07-28 wire codec refuses, for every method, a result whose `resultType` is neither
 *   `complete` nor `input_required`: a `tools/call` answered with a task never reaches the caller;
 * - the tasks extension is declared per request, in the envelope's client capabilities, and the
 *   client's public API has no way to put it there.
 * The official extension's requester client meets the same two walls and takes the same way out
 * (a host-supplied raw dispatch).
 *
 * The transport frames the requests (the `Mcp-Method`/`Mcp-Name` headers from the body, the
 * target's headers, JSON or SSE answers); the owner passes every message the transport receives
 * to {@link RawExchange.takes} first, which keeps the answers to these requests (their ids are
 * strings, which the client never uses) and the notifications of their listens. When the SDK
 * accepts an extension's result types, this class goes.
 *
 * @example
 * ```ts
 * const raw = new RawExchange(transport, false);
 * const onmessage = transport.onmessage; // after client.connect(transport)
 * transport.onmessage = (message, extra) => { if (!raw.takes(message)) onmessage?.(message, extra); };
 * const task = await raw.request('tasks/get', { taskId }, signal);
 * ```
 */
export class RawExchange {
  private readonly waiting = new Map<string, Waiter>();
  /** The listens open, by their request id: the notifications their stream carries go to the listener. */
  private readonly listeners = new Map<string, (notification: Record<string, unknown>) => void>();
  private nextId = 1;

  /**
   * @param transport - The connection's SDK transport, already started (by `client.connect`).
   * @param stdio - Whether a cancelled request is told with `notifications/cancelled` (stdio);
   *   over HTTP, closing its response stream is the cancellation.
   */
  constructor(
    private readonly transport: Transport,
    private readonly stdio: boolean
  ) {}

  /** Whether `message` answers one of these requests (it is then settled here, and not passed on). */
  takes(message: JSONRPCMessage): boolean {
    if ('method' in message && !('id' in message)) {
      const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
      const listener = meta ? this.listeners.get(String(meta[SUBSCRIPTION_ID_META_KEY])) : undefined;
      if (!listener) return false;
      listener({ method: message.method, params: message.params });
      return true;
    }
    if ('method' in message || !('id' in message) || typeof message.id !== 'string') return false;
    const waiter = this.waiting.get(message.id);
    if (!waiter) return false;
    this.waiting.delete(message.id);
    if ('error' in message) waiter.reject(new UpstreamRpcError(message.error.code, message.error.message, message.error.data));
    else waiter.resolve(message.result as Record<string, unknown>);
    return true;
  }

  /** Fails every request waiting (the connection closed). */
  failAll(error: Error): void {
    const waiters = [...this.waiting.values()];
    this.waiting.clear();
    for (const waiter of waiters) waiter.reject(error);
  }

  /**
   * Sends one request and resolves with its raw result; a JSON-RPC error rejects as an
   * {@link UpstreamRpcError}. Aborting `signal` cancels it upstream (its HTTP response stream
   * closes; over stdio `notifications/cancelled` is sent) and rejects with the signal's reason.
   */
  request(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    return this.send(`raw:${this.nextId++}`, method, params, signal);
  }

  /**
   * A `subscriptions/listen`: every notification its stream carries (named by its subscription
   * id, the request's) goes to `listener` until the stream's result (resolved) or `signal` (rejected).
   */
  async listen(
    params: Record<string, unknown>,
    signal: AbortSignal,
    listener: (notification: Record<string, unknown>) => void
  ): Promise<Record<string, unknown>> {
    const id = `raw:${this.nextId++}`;
    this.listeners.set(id, listener);
    try {
      return await this.send(id, 'subscriptions/listen', params, signal);
    } finally {
      this.listeners.delete(id);
    }
  }

  private send(id: string, method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const settle = (end: () => void): void => {
        if (!this.waiting.delete(id)) return;
        signal?.removeEventListener('abort', onAbort);
        end();
      };
      const onAbort = (): void =>
        settle(() => {
          if (this.stdio)
            void this.transport
              .send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: String(signal?.reason) } })
              .catch(() => undefined);
          reject(signal?.reason as Error);
        });
      this.waiting.set(id, {
        resolve: (result) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(result);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        }
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.transport
        .send({ jsonrpc: '2.0', id, method, params }, signal ? { requestSignal: signal } : undefined)
        .catch((error: unknown) => settle(() => reject(error)));
    });
  }
}
