import { jsonAnswer } from '../json-answer';

const encoder = new TextEncoder();

/** How often a 2026-07-28 answer's SSE stream carries a keep-alive comment, as the SDK's per-request transport writes one. */
const KEEP_ALIVE_MS = 15_000;

/** The headers of an SSE answer, as the SDK's per-request transport sends them. */
const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no'
};

/** The headers of a JSON answer. */
const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json' };

/**
 * The answer of one 2026-07-28 lane call, shaped as the SDK's per-request transport
 * (`PerRequestHTTPServerTransport`, response mode `auto`) shapes it: the call's response first
 * (nothing came before it) is one JSON body, status 200 (400 for a -32021, which the SDK answers
 * with its ladder status while no stream is open); anything else first (progress, a log message)
 * starts an SSE stream of `event: message` events in the order sent, with a keep-alive comment
 * every 15 s, ended once the response is written. No headers go before the first message, as
 * there. Once the call's signal aborts (the client ended the request: the 2026-07-28
 * cancellation), nothing more is written and the stream is closed.
 */
export class ModernAnswer {
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private keepAlive: ReturnType<typeof setInterval> | undefined;
  private ended = false;
  private answer!: (response: Response) => void;
  /** The HTTP response, once the first message (or the end) decides it. */
  readonly response: Promise<Response>;

  constructor(private readonly signal: AbortSignal) {
    this.response = new Promise<Response>((resolve) => (this.answer = resolve));
  }

  /** Writes a notification (dropped once the answer ended or the call was cancelled). */
  notify(message: object): Promise<void> {
    if (this.ended || this.signal.aborted) return Promise.resolve();
    this.open();
    this.frame(message);
    return Promise.resolve();
  }

  /** Writes the call's response, the last message; `ladderStatus`: its HTTP status as a JSON body, when not 200. */
  respond(message: object, ladderStatus?: number): void {
    if (this.ended || this.signal.aborted) return;
    if (!this.controller) {
      this.ended = true;
      this.answer(jsonAnswer(JSON.stringify(message), ladderStatus ?? 200, JSON_HEADERS));
      return;
    }
    this.frame(message);
    this.end();
  }

  /** Ends the answer (idempotent): a stream is closed; a call that answered nothing (cancelled) gets an empty stream nobody reads. */
  end(): void {
    if (this.ended) return;
    if (!this.controller) this.open();
    this.ended = true;
    clearInterval(this.keepAlive);
    try {
      this.controller!.close();
    } catch {
      // Already cancelled by its reader.
    }
  }

  /** Starts the SSE stream (once): its headers go now, its events as they come. */
  private open(): void {
    if (this.controller) return;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
      cancel: () => {
        this.ended = true;
        clearInterval(this.keepAlive);
      }
    });
    this.keepAlive = setInterval(() => this.write(': keepalive\n\n'), KEEP_ALIVE_MS);
    // Not holding a process open (Node); a runtime whose timers are numbers (Cloudflare Workers) has no unref.
    (this.keepAlive as { unref?: () => void }).unref?.();
    this.answer(new Response(body, { status: 200, headers: SSE_HEADERS }));
  }

  private frame(message: object): void {
    this.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  private write(frame: string): void {
    if (this.ended) return;
    try {
      this.controller!.enqueue(encoder.encode(frame));
    } catch {
      // The reader went away: nothing more to write.
    }
  }
}
