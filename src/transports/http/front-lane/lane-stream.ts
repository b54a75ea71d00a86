import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';
import { isCongested } from '../connection-facts';
import type { EntryRequest } from '../entry-request';
import { jsonAnswer } from '../json-answer';
import { KEEP_ALIVE, KEEP_ALIVE_MS, primingEvent, sseEvent, sseHeaders, storeNowOf } from './lane-wire';

/** What a write that has nothing to wait for answers. */
const DONE: Promise<void> = Promise.resolve();

/**
 * How long a lane call may go without a message before its SSE stream's headers are sent anyway:
 * a quick call is answered as one JSON body, and a long one still answers at once (as the normal
 * path does with its priming event), so no client or proxy waits minutes for headers (Node's
 * `fetch` gives up on headers after 300 s).
 */
const JSON_WINDOW_MS = 1000;

/**
 * What makes a lane call's stream resumable, as the normal path's are: the session's event store
 * and the call's stream id in it. Every event of the stream is stored there before it is written,
 * and written with the id the store gave it.
 */
export interface LaneEvents {
  /** The session's event store (the one its SDK transport uses: one sequence of ids per session). */
  readonly store: EventStore;
  /** The call's stream in the store (a fresh id per call, as the transport's per POST). */
  readonly streamId: string;
  /**
   * Whether the stream opens with a priming event (an empty event with an id, and the `retry`
   * interval): the SDK's transport sends one to clients of 2025-11-25 and later, whose SDK then
   * reconnects a stream that drops before its response.
   */
  readonly priming: boolean;
  /** The reconnection delay suggested in the priming event (the session's `retryIntervalMs`). */
  readonly retryIntervalMs: number | undefined;
}

/** A connection an answer's events go to: the call's POST, or a GET that resumed its stream. */
interface Connection {
  readonly controller: ReadableStreamDefaultController<Uint8Array>;
  readonly request: EntryRequest;
}

/**
 * The answer of one lane call. Without its JSON window (`jsonWindow` false) it is an SSE stream
 * from the start, opened (with its priming event) as the SDK's transport opens one. With it, its
 * HTTP response is decided by the first message: the call's
 * response first (nothing came before it) is answered as one JSON body, which a 2025-era client
 * takes as it takes an SSE stream (the spec lets the server choose); anything else first (progress,
 * a log message) starts an SSE stream of `event: message` events as the SDK's transport writes
 * them, in the order sent, ended once the response is written. A call with nothing to say within
 * `JSON_WINDOW_MS` starts its stream empty. Once the call's signal aborts, nothing more is written.
 *
 * With `events` (the session has an event store), the stream is resumable as the normal path's:
 * it opens with the transport's priming event where the transport sends one, each event is stored
 * and carries its id, and a connection that drops leaves the answer running without one
 * (`detach`): its events are stored, and `resume` (a GET with `Last-Event-ID`) replays those after
 * the client's last one, then carries the rest live. Storing and writing go through one queue, so
 * the ids and the bytes keep the order sent, and a replay is never overtaken by a live event.
 */
export class LaneAnswer {
  /** Where events go now; none before the stream starts, and while its client is away. */
  private live: Connection | undefined;
  /** The SSE stream was started (its headers went, or go, to the call's POST). */
  private opened = false;
  /** No more messages: the JSON answer was given, or the call ended. */
  private finished = false;
  /** Everything queued before the end was written, and the stream closed: a resume only replays. */
  private closed = false;
  /** An event with an id was written: the client may hold an id to resume with. */
  private identified = false;
  /** Stores and writes, in the order sent; `pending` of them not done yet. */
  private queue: Promise<void> = DONE;
  private pending = 0;
  private answer!: (response: Response) => void;
  private window: NodeJS.Timeout | undefined;
  private keepAlive: NodeJS.Timeout | undefined;
  /** The HTTP response to the call's POST, once the first message (or the end) decides it. */
  readonly response: Promise<Response>;

  constructor(
    private readonly sessionId: string,
    private readonly signal: AbortSignal,
    private readonly request: EntryRequest,
    private readonly events?: LaneEvents,
    /** Whether a response that comes first is answered as one JSON body; false: the SSE stream starts at once, as the SDK's transport starts it. */
    jsonWindow = true
  ) {
    this.response = new Promise<Response>((resolve) => (this.answer = resolve));
    if (jsonWindow) this.window = setTimeout(() => this.open(true), JSON_WINDOW_MS);
    else this.open(true);
  }

  /**
   * Whether a connection that drops now leaves the call running: its client can come back for it
   * (the session stores the stream's events, and an event with an id went out). Else the client
   * holds nothing to resume with, and the caller cancels the call.
   */
  get resumable(): boolean {
    return this.events !== undefined && this.identified;
  }

  /** Whether the connection events go to now is congested (false while the client is away: they are stored). */
  get congested(): boolean {
    return this.live !== undefined && isCongested(this.live.request);
  }

  /** Writes one message (dropped once the answer ended or the call was cancelled). */
  send(message: object): Promise<void> {
    if (this.finished || this.signal.aborted) return DONE;
    if (!this.opened && 'id' in message) {
      clearTimeout(this.window);
      this.finished = true;
      this.answer(jsonAnswer(JSON.stringify(message), 200, { 'content-type': 'application/json', 'mcp-session-id': this.sessionId }));
      return DONE;
    }
    this.open(true);
    if (!this.events) {
      this.write(undefined, message);
      return DONE;
    }
    const events = this.events;
    const now = this.pending === 0 ? storeNowOf(events.store) : undefined;
    if (now) {
      // Nothing queued before it (no priming, no replay in progress): stored and written in this turn, in order.
      this.write(now.call(events.store, events.streamId, message as JSONRPCMessage), message);
      return DONE;
    }
    return this.enqueue(async () => {
      let eventId: string | undefined;
      try {
        eventId = await events.store.storeEvent(events.streamId, message as JSONRPCMessage);
      } catch {
        // A store that fails (a shared one, unreachable): the event still goes to a connected client, without an id.
      }
      this.write(eventId, message);
    });
  }

  /** The call's connection dropped (`request` is the one that did): the answer runs on without one. */
  detach(request: EntryRequest): void {
    if (this.live?.request === request) this.live = undefined;
  }

  /**
   * Closes the connection events go to now, without ending the call (a tool's `ctx.closeStream`,
   * SSE polling): the client reconnects after the retry interval and resumes. Opens the stream
   * first (with its priming event) when nothing was sent yet.
   */
  closeConnection(): void {
    if (this.finished) return;
    this.open(true);
    void this.enqueue(() => {
      const live = this.live;
      this.live = undefined;
      close(live);
    });
  }

  /**
   * A GET with `Last-Event-ID` naming this answer's stream: an SSE response that replays the
   * stored events after `lastEventId`, then carries the rest live (or ends, when the call has).
   * The connection it replaces, if any, is closed, as the SDK's transport does after a replay.
   */
  resume(request: EntryRequest, lastEventId: string): Response {
    const events = this.events!;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let gone = false;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c;
      },
      cancel: () => {
        gone = true;
        if (this.live?.controller === controller) this.live = undefined;
      }
    });
    void this.enqueue(async () => {
      try {
        await events.store.replayEventsAfter(lastEventId, {
          send: async (eventId, message) => {
            if (!gone) controller.enqueue(sseEvent(eventId, message));
          }
        });
      } catch {
        gone = true; // expired meanwhile: the stream ends with what it had
      }
      if (gone || this.closed) return close({ controller, request });
      close(this.live);
      this.live = { controller, request };
    });
    return new Response(body, { status: 200, headers: sseHeaders(this.sessionId) });
  }

  /** Ends the answer (idempotent): once what is queued is written, the stream closes; a call that sent nothing (cancelled) gets an empty stream. */
  end(): void {
    if (this.finished) return;
    this.finished = true;
    this.open(false);
    void this.enqueue(() => {
      this.closed = true;
      clearInterval(this.keepAlive);
      const live = this.live;
      this.live = undefined;
      close(live);
    });
  }

  /** Whether every event queued was written and the stream closed (a resume then only replays). */
  get ended(): boolean {
    return this.closed;
  }

  /** Whether a connection carries the stream now. */
  get connected(): boolean {
    return this.live !== undefined;
  }

  /** Settles once everything queued so far (after `end`: every event, and the close) is written. */
  get flushed(): Promise<void> {
    return this.queue;
  }

  /** Starts the SSE stream (once): its headers go now, its events (the priming event first, when `priming`) as they come. */
  private open(priming: boolean): void {
    clearTimeout(this.window);
    if (this.opened) return;
    this.opened = true;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c;
      },
      cancel: () => {
        if (this.live?.controller === controller) this.live = undefined;
      }
    });
    this.live = { controller, request: this.request };
    this.answer(new Response(body, { status: 200, headers: sseHeaders(this.sessionId) }));
    // Whichever connection carries the stream (the POST's, a resuming GET's) hears from it while the call is quiet.
    this.keepAlive = setInterval(() => {
      if (this.live) this.enqueueRaw(KEEP_ALIVE, false);
    }, KEEP_ALIVE_MS);
    this.keepAlive.unref();
    const events = this.events;
    if (!events?.priming || !priming) return;
    // As the SDK's `writePrimingEvent`: an empty message stored, its id and the retry interval written.
    const prime = (eventId: string | undefined): void => {
      if (eventId === undefined || !this.live) return;
      this.enqueueRaw(primingEvent(eventId, events.retryIntervalMs), true);
    };
    const now = this.pending === 0 ? storeNowOf(events.store) : undefined;
    if (now) prime(now.call(events.store, events.streamId, {} as JSONRPCMessage));
    else void this.enqueue(async () => prime(await events.store.storeEvent(events.streamId, {} as JSONRPCMessage).catch(() => undefined)));
  }

  private write(eventId: string | undefined, message: unknown): void {
    if (this.live) this.enqueueRaw(sseEvent(eventId, message), eventId !== undefined);
  }

  private enqueueRaw(bytes: Uint8Array, identified: boolean): void {
    try {
      this.live!.controller.enqueue(bytes);
      if (identified) this.identified = true;
    } catch {
      this.live = undefined; // closed under us (the entry stopped reading)
    }
  }

  private enqueue(step: () => void | Promise<void>): Promise<void> {
    this.pending++;
    this.queue = this.queue
      .then(step)
      .catch(() => undefined)
      .finally(() => this.pending--);
    return this.queue;
  }
}

/** Closes a connection's stream (one already closed or cancelled is left as it is). */
function close(connection: Connection | undefined): void {
  try {
    connection?.controller.close();
  } catch {
    // already closed or cancelled
  }
}
