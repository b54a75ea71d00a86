import { AsyncLocalStorage } from 'node:async_hooks';
import type { JSONRPCMessage, LoggingLevel } from '@modelcontextprotocol/client';
import type { UpstreamAnswer, UpstreamAsk, UpstreamCall } from './upstream-call';

/**
 * The calls in flight on one upstream connection, and what of the upstream's traffic belongs to
 * which: progress by its `progressToken`; a log message or a question by the call whose request
 * carries it where the SDK runs that inside the call (a 2026-07-28 `input_required`, or a
 * 2025-era HTTP request's own response stream: an async context); else, over stdio, the one call
 * in flight that can take it (over HTTP, a request outside every call is refused: it came on the
 * standalone stream, which no call's request uses). `null` context: a request that is no call (a read, a prompt): its
 * questions are refused, never given to a call. Where it cannot say which call, it does not guess.
 */
export class CallRouter {
  private readonly running = new Set<UpstreamCall>();
  private readonly byToken = new Map<string, UpstreamCall>();
  private readonly storage = new AsyncLocalStorage<UpstreamCall | null>();

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
  }

  /** Runs `work` as `call`'s (what the upstream sends inside it belongs to the call). */
  runIn<T>(call: UpstreamCall, work: () => T): T {
    return this.storage.run(call, work);
  }

  /** Runs a request that is no call (its questions are refused). */
  runOutside<T>(work: () => Promise<T>): Promise<T> {
    return this.storage.run(null, work);
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
    refuse: (why: string) => void,
    outside?: (why: string | undefined) => Promise<UpstreamAnswer> | undefined
  ): Promise<UpstreamAnswer> {
    const store = this.storage.getStore();
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
      return Promise.resolve(
        ask.method === 'elicitation/create'
          ? { result: { action: 'cancel' } }
          : { refused: `The gateway forwards ${ask.method} only during a tool call it can attribute (${why}).` }
      );
    }
    return new Promise<UpstreamAnswer>((resolve) => {
      let answered = false;
      call.push({
        kind: 'question',
        question: {
          ask,
          respond: (answer) => {
            if (answered) return;
            answered = true;
            resolve(answer);
          }
        }
      });
    });
  }

  /** The call a log message belongs to: the context's, else over stdio the one call in flight. */
  private callOfNotification(): UpstreamCall | undefined {
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
