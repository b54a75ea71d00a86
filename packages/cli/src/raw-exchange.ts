import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

type Json = Record<string, unknown>;

/** A JSON-RPC error answer, thrown with its code. */
export class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string
  ) {
    super(message);
  }
}

interface Waiter {
  resolve(result: Json): void;
  reject(error: unknown): void;
}

/**
 * Requests the SDK client cannot make itself, sent as they are over the connection's own SDK
 * transport: a 2026-07-28 `tools/call` that may be answered `resultType: "task"` and the `tasks/*`
 * requests of the tasks extension. The transport does the framing (the `Mcp-Method`/`Mcp-Name`
 * headers derived from the body's envelope, the extra headers, JSON or SSE answers); the answers
 * are taken off it before the client sees them (their ids are strings, which the client never
 * uses), and notifications go on to the client. Everything else the CLI sends goes through the
 * SDK `Client` (list, call, complete, read, get, and the input rounds of a plain call).
 *
 * Why not `client.request(…, resultSchema)`, checked against SDK 2.4:
 * - its 2026-07-28 wire codec (`decodeResult`) refuses, for every method, a result whose
 *   `resultType` is neither `complete` nor `input_required` (`SdkErrorCode.UnsupportedResultType`):
 *   a `tools/call` answered with a task never reaches the caller;
 * - the tasks extension is declared per request, in the envelope's
 *   `io.modelcontextprotocol/clientCapabilities.extensions`, and the client's public API has no way
 *   to put it there (the client stamps its own capabilities).
 * The official extension's requester client (`@modelcontextprotocol/ext-tasks/client`) meets the
 * same two walls and takes the same way out: a host-supplied raw dispatch (`RawClientDispatch`,
 * "used when SDK wire codecs reject V2 task traffic") and explicit `V2RequestFraming`. When the SDK
 * accepts an extension's result types, this file goes.
 */
export class RawExchange {
  private readonly waiting = new Map<string, Waiter>();
  private nextId = 1;

  constructor(private readonly transport: Transport) {}

  /** Whether `message` answers one of these requests (it is then settled here, and not passed on). */
  takes(message: JSONRPCMessage): boolean {
    if ('method' in message || !('id' in message) || typeof message.id !== 'string') return false;
    const waiter = this.waiting.get(message.id);
    if (!waiter) return false;
    this.waiting.delete(message.id);
    if ('error' in message) waiter.reject(new RpcFailure(message.error.code, message.error.message));
    else waiter.resolve(message.result as Json);
    return true;
  }

  /**
   * Sends one request and resolves with its raw result; a JSON-RPC error rejects as an
   * {@link RpcFailure}. Aborting `signal` aborts the HTTP request (its response stream closes,
   * which a 2026-07-28 server reads as the request's cancellation) and rejects with its reason.
   */
  request(method: string, params: Json, signal?: AbortSignal): Promise<Json> {
    const id = `cli:${this.nextId++}`;
    return new Promise<Json>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = (): void => settle(() => reject(signal?.reason));
      const settle = (end: () => void): void => {
        if (!this.waiting.delete(id)) return;
        signal?.removeEventListener('abort', onAbort);
        end();
      };
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
        .send({ jsonrpc: '2.0', id, method, params }, { requestSignal: signal })
        .catch((error: unknown) => settle(() => reject(error)));
    });
  }
}
