/** A JSON-RPC notification read from a listen's stream. */
export interface SseMessage {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

/** A listen's stream, read message by message. */
export interface SseReader {
  /** The next message (waits for the server's next bytes; throws when the stream ends first). */
  next(): Promise<SseMessage>;
  /** The next message that satisfies `predicate` (those before it are skipped). */
  until(predicate: (message: SseMessage) => boolean): Promise<SseMessage>;
  /** Cancels the stream (the client closing the listen). */
  close(): Promise<void>;
}

/**
 * Reads a server-sent event stream (a 2026-07-28 `subscriptions/listen` response) message by
 * message, for tests that follow a listen: each read waits for the server's next bytes, no sleeps.
 */
export function sseMessages(body: ReadableStream<Uint8Array>): SseReader {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  const next = async (): Promise<SseMessage> => {
    for (;;) {
      const end = buffered.indexOf('\n\n');
      if (end >= 0) {
        const event = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const data = event
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim())
          .join('');
        if (data) return JSON.parse(data) as SseMessage;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the listen stream ended');
      buffered += decoder.decode(value, { stream: true });
    }
  };
  return {
    next,
    async until(predicate: (message: SseMessage) => boolean): Promise<SseMessage> {
      for (;;) {
        const message = await next();
        if (predicate(message)) return message;
      }
    },
    close: () => reader.cancel()
  };
}
