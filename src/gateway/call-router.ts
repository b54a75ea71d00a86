import { AsyncLocalStorage } from 'node:async_hooks';
import type { JSONRPCMessage, LoggingLevel } from '@modelcontextprotocol/client';
import { withdrawn, type UpstreamAnswer, type UpstreamAsk, type UpstreamCall } from './upstream-call';

/**
 * The calls in flight on one upstream connection, and what of the upstream's traffic belongs to
 * which: progress by its `progressToken`; a log message or a question by the call whose request
 * carries it: named by the gateway's direct path, which reads each call's own response stream
 * (`deliver`), or, where the SDK client sends the request, by the async context it runs in (a
 * 2026-07-28 `input_required`, or a 2025-era HTTP request's own response stream); else, over
 * stdio, the one call in flight that can take it (over HTTP, a request outside every call is
 * refused: it came on the standalone stream, which no call's request uses). `null` context: a
 * request that is no call (a read, a prompt): its questions are refused, never given to a call.
 * Where it cannot say which call, it does not guess.
 *
 * The async context is an AsyncLocalStorage, switched on only while a request the SDK client
 * sends is in flight: on Node 20 and 22 its promise hooks, once on, cost every promise of the
 * process, and the direct path (every tool call to an HTTP upstream) needs none.
 */
export class CallRouter {
  private readonly running = new Set<UpstreamCall>();
  private readonly byToken = new Map<string, UpstreamCall>();
  private readonly storage = new AsyncLocalStorage<UpstreamCall | null>();
  /** Requests the SDK client sends now inside a context (`within`): the storage is switched off at none. */
  private scoped = 0;
  /** The call whose message the direct path is handing on now (`deliver`, synchronous). */
  private delivering: UpstreamCall | undefined;
  /** Questions the direct path handed on, by their JSON-RPC id, until the SDK's handler takes them (`AMBIGUOUS`: two calls' share an id). */
  private readonly askedBy = new Map<string, UpstreamCall | typeof AMBIGUOUS>();

  /** `stdio`: a connection whose notifications come with no context (then the sole call in flight is meant). */
  constructor(private readonly stdio: boolean) {}

  /** Calls in flight. */
  get size(): number {
    return this.running.size;
  }

  /** Calls in flight that have not had their outcome yet. */
  get live(): number {
    let count = 0;
    for (const call of this.running) if (!call.finished) count++;
    return count;
  }

  add(call: UpstreamCall): void {
    this.running.add(call);
    this.byToken.set(call.progressToken, call);
  }

  delete(call: UpstreamCall): void {
    this.running.delete(call);
    this.byToken.delete(call.progressToken);
    // A question of the call that its handler never took (the SDK refused it first).
    for (const [id, asker] of this.askedBy) if (asker === call) this.askedBy.delete(id);
  }

  /** Runs `work`, a request the SDK client sends for `call` (what the upstream sends inside it belongs to the call). */
  runIn<T>(call: UpstreamCall, work: () => Promise<T>): Promise<T> {
    return this.within(call, work);
  }

  /** Runs a request that is no call (its questions are refused). */
  runOutside<T>(work: () => Promise<T>): Promise<T> {
    return this.within(null, work);
  }

  /**
   * Hands on `message`, which came on `call`'s own response stream (the direct path), as `call`'s:
   * a notification is routed now, a request (a question) is remembered by its id until the SDK's
   * handler asks whose it is (`ask`).
   */
  deliver(call: UpstreamCall, message: JSONRPCMessage, receive: (message: JSONRPCMessage) => void): void {
    // Only what the SDK hands a handler of ours (a request of another method, or one it refuses, is never asked
    // for), and at most MAX_ASKED at once: a flood of requests leaves the rest unnamed, so refused.
    if ('method' in message && 'id' in message && ASKS.has(message.method) && this.askedBy.size < MAX_ASKED) {
      const key = idKey(message.id);
      const asker = this.askedBy.get(key);
      this.askedBy.set(key, asker === undefined || asker === call ? call : AMBIGUOUS);
    }
    const previous = this.delivering;
    this.delivering = call;
    try {
      receive(message);
    } finally {
      this.delivering = previous;
    }
  }

  /** `work` inside the storage's `store`; the storage is switched off again when no such request is left in flight. */
  private within<T>(store: UpstreamCall | null, work: () => Promise<T>): Promise<T> {
    this.scoped++;
    let running: Promise<T>;
    try {
      running = this.storage.run(store, work);
    } catch (error) {
      running = Promise.reject(error);
    }
    return running.finally(() => {
      if (--this.scoped === 0) this.storage.disable();
    });
  }

  /** Fails every call in flight (the connection is gone). */
  failAll(error: Error): void {
    for (const call of this.running) call.push({ kind: 'failed', error });
  }

  /** Queues a progress or log message on its call; false when it is not one (or belongs to no call): the SDK reads it. */
  route(message: JSONRPCMessage): boolean {
    if (!('method' in message) || !message.params || 'id' in message) return false;
    if (message.method === 'notifications/progress') {
      const params = message.params as { progressToken?: unknown; progress?: unknown; total?: unknown; message?: unknown };
      const call = this.byToken.get(String(params.progressToken));
      if (!call) return false;
      if (typeof params.progress === 'number')
        call.push({
          kind: 'progress',
          progress: params.progress,
          ...(typeof params.total === 'number' ? { total: params.total } : {}),
          ...(typeof params.message === 'string' ? { message: params.message } : {})
        });
      return true;
    }
    if (message.method === 'notifications/message') {
      const params = message.params as { level?: unknown; data?: unknown; logger?: unknown };
      const call = this.callOfNotification();
      if (!call || typeof params.level !== 'string') return false;
      call.push({
        kind: 'log',
        level: params.level as LoggingLevel,
        data: params.data,
        ...(typeof params.logger === 'string' ? { logger: params.logger } : {})
      });
      return true;
    }
    return false;
  }

  /**
   * An upstream request of the client, delivered to its call and answered when the front client
   * answers (or withdrawn). `outside` may answer what no call's context names before a call is
   * guessed for it (`why` undefined: a per-session connection's roots are its front session's,
   * whichever call is in flight), and what no call can be named for (`why` says why); else it is
   * refused at once (`refuse` says why).
   */
  ask(
    ask: UpstreamAsk,
    requestId: string | number,
    refuse: (why: string) => void,
    outside?: (why: string | undefined) => Promise<UpstreamAnswer> | undefined
  ): Promise<UpstreamAnswer> {
    const store = this.askerOf(requestId);
    if (store === AMBIGUOUS) {
      const why = 'two requests in flight asked under the same request id';
      refuse(why);
      return Promise.resolve(withdrawn(ask, `The gateway forwards ${ask.method} only during a tool call it can attribute (${why}).`));
    }
    const own = store === undefined ? outside?.(undefined) : undefined;
    if (own) return own;
    // Over HTTP, a request outside every call's context came on the standalone stream, which carries no call's requests: refused, never guessed.
    const call = store === null ? undefined : (store ?? (this.stdio ? this.soleWaitingFree() : undefined));
    if (!call) {
      const why =
        store === null
          ? 'it came during a request that is not a tool call'
          : !this.stdio
            ? 'it came outside every call (on the standalone stream)'
            : `${this.running.size} calls were in flight and it cannot say which call asks`;
      const answer = outside?.(why);
      if (answer) return answer;
      refuse(why);
      return Promise.resolve(withdrawn(ask, `The gateway forwards ${ask.method} only during a tool call it can attribute (${why}).`));
    }
    const guessed = store === undefined;
    return new Promise<UpstreamAnswer>((resolve) => {
      let answered = false;
      call.push({
        kind: 'question',
        question: {
          ask,
          ...(guessed ? { guessed } : {}),
          respond: (answer) => {
            if (answered) return;
            answered = true;
            resolve(answer);
          }
        }
      });
    });
  }

  /** The call whose request `requestId` is: as the direct path delivered it, else the context's (undefined: none). */
  private askerOf(requestId: string | number): UpstreamCall | null | typeof AMBIGUOUS | undefined {
    const key = idKey(requestId);
    const asker = this.askedBy.get(key);
    const context = this.storage.getStore();
    if (asker === undefined) return context;
    this.askedBy.delete(key);
    // A request the SDK client sent has its id too (an upstream without sessions counts ids per request): not guessed.
    return context === undefined || context === asker ? asker : AMBIGUOUS;
  }

  /** The call a log message belongs to: the one the direct path is delivering, else the context's, else over stdio the one call in flight. */
  private callOfNotification(): UpstreamCall | undefined {
    if (this.delivering) return this.delivering;
    const store = this.storage.getStore();
    if (store !== undefined) return store ?? undefined;
    if (!this.stdio) return undefined;
    const live = [...this.running].filter((call) => !call.finished);
    return live.length === 1 ? live[0] : undefined;
  }

  /** The one call in flight not already waiting for an answer (what a 2025-era question can belong to). */
  private soleWaitingFree(): UpstreamCall | undefined {
    const free = [...this.running].filter((call) => !call.pending && !call.finished);
    return free.length === 1 ? free[0] : undefined;
  }
}

/** The upstream requests the gateway answers for a call (`upstream-client.ts`'s handlers). */
const ASKS: ReadonlySet<string> = new Set(['elicitation/create', 'sampling/createMessage', 'roots/list']);

/** Questions remembered at once per connection (each call has at most one waiting; the rest is a flood). */
const MAX_ASKED = 256;

/** What `askedBy` holds for an id two calls' questions share: neither is guessed. */
const AMBIGUOUS = Symbol('ambiguous');

/** A JSON-RPC id as a map key (`1` and `"1"` apart). */
function idKey(id: string | number): string {
  return typeof id === 'number' ? `n${id}` : `s${id}`;
}
