import { SseSplitter, type SseEvent } from '../../../src/gateway/upstream-sse';

/** The SSE reader of the gateway's direct calls (src/gateway/direct-call.ts): events, line ends, pieces, and the bound. */

function read(chunks: Buffer[], maxBytes = 1 << 20): { events: SseEvent[]; ok: boolean } {
  const events: SseEvent[] = [];
  const splitter = new SseSplitter(maxBytes, (event) => events.push(event));
  let ok = true;
  for (const chunk of chunks) if (ok) ok = splitter.push(chunk);
  return { events, ok };
}

const STREAM =
  ': a comment\n\n' +
  'id: prime-1\nretry: 10\ndata: \n\n' +
  'event: message\r\ndata: {"a":"✓ é"}\r\n\r\n' +
  'data: first line\rdata: second line\r\r' +
  'event: other\ndata: skipped by the caller\n\n' +
  'data:no space\n\n';

const EXPECTED: SseEvent[] = [
  { event: '', data: '', id: 'prime-1' },
  { event: 'message', data: '{"a":"✓ é"}' },
  { event: '', data: 'first line\nsecond line' },
  { event: 'other', data: 'skipped by the caller' },
  { event: '', data: 'no space' }
];

describe('SseSplitter', () => {
  it('reads events with LF, CRLF and CR line ends, comments, ids and multi-line data', () => {
    expect(read([Buffer.from(STREAM)])).toEqual({ events: EXPECTED, ok: true });
  });

  it('reads the same events however the bytes are cut (inside a CRLF, inside a character)', () => {
    const bytes = Buffer.from(STREAM);
    for (let cut = 1; cut < bytes.length; cut++) expect(read([bytes.subarray(0, cut), bytes.subarray(cut)]).events).toEqual(EXPECTED);
    expect(read([...bytes].map((byte) => Buffer.from([byte]))).events).toEqual(EXPECTED);
  });

  it('stops at an event over the bound, counted from the end of the event before, also across chunks', () => {
    const small = Buffer.from(`data: ${'x'.repeat(50)}\n\n`);
    // Many events, together far over the bound, each under it.
    expect(
      read(
        Array.from({ length: 100 }, () => small),
        100
      ).ok
    ).toBe(true);
    const big = Buffer.from(`data: ${'x'.repeat(200)}\n\n`);
    expect(read([big], 100)).toEqual({ events: [], ok: false });
    expect(read([big.subarray(0, 60), big.subarray(60, 120), big.subarray(120)], 100)).toEqual({ events: [], ok: false });
    // An event that never ends is stopped as soon as it is past the bound.
    expect(read([Buffer.from(`data: ${'y'.repeat(150)}`)], 100).ok).toBe(false);
  });
});
