const encoder = new TextEncoder();

/**
 * How long a lane call may go without a message before its SSE stream's headers are sent anyway:
 * a quick call is answered as one JSON body, and a long one still answers at once (as the normal
 * path does with its priming event), so no client or proxy waits minutes for headers (Node's
 * `fetch` gives up on headers after 300 s).
 */
const JSON_WINDOW_MS = 1000;

/** The headers of a lane call's SSE answer, as the SDK's transport sends them (the session's id among them). */
function sseHeaders(sessionId: string): Record<string, string> {
  return {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'mcp-session-id': sessionId
  };
}

/**
 * The answer of one lane call. Its HTTP response is decided by the first message: the call's
 * response first (nothing came before it) is answered as one JSON body, which a 2025-era client
 * takes as it takes an SSE stream (the spec lets the server choose); anything else first (progress,
 * a log message) starts an SSE stream of `event: message` events as the SDK's transport writes
 * them (without event ids: a lane stream is not resumable), in the order sent, ended once the
 * response is written. A call with nothing to say within `JSON_WINDOW_MS` starts its stream empty.
 * Once the call's signal aborts, nothing more is written.
 */
export class LaneAnswer {
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private ended = false;
  private answer!: (response: Response) => void;
  private window: NodeJS.Timeout | undefined;
  /** The HTTP response, once the first message (or the end) decides it. */
  readonly response: Promise<Response>;

  constructor(
    private readonly sessionId: string,
    private readonly signal: AbortSignal
  ) {
    this.response = new Promise<Response>((resolve) => (this.answer = resolve));
    this.window = setTimeout(() => this.open(), JSON_WINDOW_MS);
  }

  /** Writes one message (dropped once the answer ended or the call was cancelled). */
  send(message: object): Promise<void> {
    if (this.ended || this.signal.aborted) return Promise.resolve();
    const data = JSON.stringify(message);
    if (!this.controller && 'id' in message) {
      this.close();
      this.answer(new Response(data, { status: 200, headers: { 'content-type': 'application/json', 'mcp-session-id': this.sessionId } }));
      return Promise.resolve();
    }
    this.open();
    this.controller!.enqueue(encoder.encode(`event: message\ndata: ${data}\n\n`));
    return Promise.resolve();
  }

  /** Starts the SSE stream (once): its headers go now, its events as they come. */
  private open(): void {
    clearTimeout(this.window);
    if (this.controller || this.ended) return;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
      cancel: () => {
        this.ended = true;
      }
    });
    this.answer(new Response(body, { status: 200, headers: sseHeaders(this.sessionId) }));
  }

  /** No more messages: the JSON window closes. */
  private close(): void {
    clearTimeout(this.window);
    this.ended = true;
  }

  /** Ends the answer (idempotent): a stream is closed; a call that sent nothing (cancelled) gets an empty stream. */
  end(): void {
    if (this.ended) return;
    if (!this.controller) this.open();
    this.close();
    this.controller!.close();
  }
}
