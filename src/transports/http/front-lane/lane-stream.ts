const encoder = new TextEncoder();

/**
 * The SSE stream of one lane call: each message an `event: message` as the SDK's transport
 * writes it (without an event id: a lane stream is not resumable), in the order sent; ended once
 * the response is written, or when the call's signal aborts (then nothing more is written).
 */
export class LaneStream {
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private ended = false;
  readonly body: ReadableStream<Uint8Array>;

  constructor(private readonly signal: AbortSignal) {
    this.body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
      cancel: () => {
        this.ended = true;
      }
    });
  }

  /** Writes one message (dropped once the stream ended or the call was cancelled). */
  send(message: object): Promise<void> {
    if (this.ended || this.signal.aborted) return Promise.resolve();
    this.controller!.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
    return Promise.resolve();
  }

  /** Ends the stream (idempotent). */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.controller!.close();
  }
}
