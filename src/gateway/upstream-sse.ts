/** One server-sent event as the gateway reads it: its `event` name (empty: a message), its `data`, its `id` where it had one. */
export interface SseEvent {
  readonly event: string;
  readonly data: string;
  readonly id?: string;
}

/**
 * Splits an upstream's `text/event-stream` into events as its bytes arrive, with no web stream
 * in between (the SDK client's reader pipes every body through a `TextDecoderStream` and an
 * `EventSourceParserStream`, which a profile of the gateway counted among a hop's larger costs).
 * Each event is bounded: one that runs past `maxBytes` (counted from the end of the event before)
 * makes {@link push} return false, and the caller stops reading. Lines end with LF, CRLF or CR;
 * comments and `retry` are skipped.
 */
export class SseSplitter {
  /** The event being read: its pieces from earlier chunks, and their size. */
  private parts: Buffer[] = [];
  private size = 0;
  /** Whether the last byte read ended a line (a second line end then ends the event). */
  private lineEnded = false;
  /** Whether it was a CR (an LF right after it belongs to the same line end). */
  private afterCarriageReturn = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onEvent: (event: SseEvent) => void
  ) {}

  /** Reads a chunk; false when an event ran past the bound (nothing more is read). */
  push(chunk: Buffer): boolean {
    // Bytes, not text: an event is decoded once, whole (a character split across chunks is joined first), and its size is exact.
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (byte !== LF && byte !== CR) {
        this.lineEnded = false;
        this.afterCarriageReturn = false;
        continue;
      }
      if (byte === LF && this.afterCarriageReturn) {
        this.afterCarriageReturn = false;
        continue;
      }
      this.afterCarriageReturn = byte === CR;
      if (!this.lineEnded) {
        this.lineEnded = true;
        continue;
      }
      // A blank line: the event ends here.
      const size = this.size + i - from;
      if (size > this.maxBytes) return false;
      const block = this.parts.length === 0 ? chunk.subarray(from, i) : Buffer.concat([...this.parts, chunk.subarray(from, i)]);
      this.parts = [];
      this.size = 0;
      this.lineEnded = false;
      from = i + 1;
      const event = parseEvent(block.toString('utf8'));
      if (event) this.onEvent(event);
    }
    if (from < chunk.length) {
      this.parts.push(chunk.subarray(from));
      this.size += chunk.length - from;
    }
    return this.size <= this.maxBytes;
  }
}

const LF = 10;
const CR = 13;

/** The fields of one event block (undefined: a block with no data, such as a priming event, is given only for its id). */
function parseEvent(block: string): SseEvent | undefined {
  let event = '';
  let data: string | undefined;
  let id: string | undefined;
  for (const line of block.split(/\r\n|\r|\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data = data === undefined ? value : `${data}\n${value}`;
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
  }
  if (data === undefined && id === undefined) return undefined;
  return { event, data: data ?? '', ...(id !== undefined ? { id } : {}) };
}
