import { SUBSCRIPTION_ID_META_KEY, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';

type Json = Record<string, unknown>;

/** A JSON-RPC error an upstream answered a raw request with (its code, message and data kept). */
export class UpstreamRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown
  ) {
    super(message);
  }
}

interface Waiter {
  resolve(result: Json): void;
  reject(error: unknown): void;
}

/**
 * Requests the SDK client cannot make to a 2026-07-28 upstream, sent as they are over the
 * connection's own SDK transport: a `tools/call` that may be answered `resultType: "task"` (the
 * SDK's wire codec refuses every result type but `complete` and `input_required`), and the
 * `tasks/*` requests. The transport frames them (the `Mcp-Method`/`Mcp-Name` headers from the
 * body, the target's headers, JSON or SSE answers); their answers are taken off it before the
 * client reads it (their ids are strings, which the client never uses). The CLI's `call --task`
 * meets the same walls and takes the same way out (packages/cli/src/raw-exchange.ts). When the
 * SDK accepts an extension's result types, this file goes.
 */
export class RawExchange {
  private readonly waiting = new Map<string, Waiter>();
  /** The listens open, by their request id: the notifications their stream carries go to the listener. */
  private readonly listeners = new Map<string, (notification: Json) => void>();
  private nextId = 1;

  /** `stdio`: a transport on which a cancelled request is told with `notifications/cancelled` (over HTTP, closing its stream is the cancellation). */
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
    else waiter.resolve(message.result as Json);
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
  request(method: string, params: Json, signal?: AbortSignal): Promise<Json> {
    return this.send(`gw:${this.nextId++}`, method, params, signal);
  }

  /**
   * A `subscriptions/listen`: every notification its stream carries (named by its subscription
   * id, the request's) goes to `listener` until the stream's result (resolved) or `signal` (rejected).
   */
  async listen(params: Json, signal: AbortSignal, listener: (notification: Json) => void): Promise<Json> {
    const id = `gw:${this.nextId++}`;
    this.listeners.set(id, listener);
    try {
      return await this.send(id, 'subscriptions/listen', params, signal);
    } finally {
      this.listeners.delete(id);
    }
  }

  private send(id: string, method: string, params: Json, signal?: AbortSignal): Promise<Json> {
    return new Promise<Json>((resolve, reject) => {
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
