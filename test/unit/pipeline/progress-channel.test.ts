import { ErrorCode, InvalidProgressError } from '../../../src/errors';
import { ProgressChannel, checkProgress, isProgressUpdate, progress } from '../../../src/pipeline/progress';
import type { ProgressSend } from '../../../src/types/request';

/** One event-loop turn (the channel yields one past its burst). */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface SendCall {
  readonly progress: number;
  readonly message: string | undefined;
  resolve(): void;
  reject(error: unknown): void;
}

/** A `send` whose every write stays in flight until the test settles it. */
function manualSend() {
  const calls: SendCall[] = [];
  const send = jest.fn<Promise<void>, [number, string | undefined]>(
    (progress, message) => new Promise<void>((resolve, reject) => calls.push({ progress, message, resolve, reject }))
  );
  return {
    send: send as ProgressSend & typeof send,
    calls,
    /** The values written (or being written), in order. */
    sent: () => calls.map((c) => c.progress),
    /** Waits (a few turns at most) until `send` has been called `n` times; fails instead of hanging. */
    async untilCalled(n: number): Promise<void> {
      for (let i = 0; i < 10 && calls.length < n; i++) await turn();
      if (calls.length < n) throw new Error(`send was called ${calls.length} times, expected ${n}`);
    },
    /** Settles every write, present and future, until nothing is in flight. */
    async drain(channel: ProgressChannel): Promise<void> {
      let settled = 0;
      const flushed = channel.flush();
      let done = false;
      void flushed.then(() => (done = true));
      while (!done) {
        while (settled < calls.length) calls[settled++].resolve();
        await turn();
      }
      await flushed;
    }
  };
}

/** A `send` that writes at once (a resolved promise), recording what it wrote. */
function instantSend() {
  const sent: Array<[number, string | undefined]> = [];
  const send: ProgressSend = async (progress, message) => {
    sent.push([progress, message]);
  };
  return { send, sent, values: () => sent.map(([p]) => p) };
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('progress() and isProgressUpdate()', () => {
  it('makes an event with the percent and the message', () => {
    const event = progress(30, 'rows loaded');
    expect(event.percent).toBe(30);
    expect(event.message).toBe('rows loaded');
    expect(isProgressUpdate(event)).toBe(true);
  });

  it('leaves the message undefined when none is given', () => {
    expect(progress(5).message).toBeUndefined();
  });

  it('does not validate: a bad value is refused when it is reported, not when it is made', () => {
    expect(() => progress(150)).not.toThrow();
    expect(isProgressUpdate(progress(NaN))).toBe(true);
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a number', 50],
    ['a string', 'progress'],
    ['a look-alike object', { percent: 50, message: 'x' }],
    ['an object branded with an unregistered symbol', { [Symbol('mcpfusion:progress')]: true, percent: 1 }],
    ['an object branded with a string key', { 'mcpfusion:progress': true, percent: 1 }],
    ['an object whose brand is not exactly true', { [Symbol.for('mcpfusion:progress')]: 1, percent: 1 }]
  ])('is false for %s', (_label, value) => {
    expect(isProgressUpdate(value)).toBe(false);
  });

  it('recognises an event made by another copy of the library (the brand is a registered symbol)', () => {
    expect(isProgressUpdate({ [Symbol.for('mcpfusion:progress')]: true, percent: 1 })).toBe(true);
  });
});

describe('checkProgress', () => {
  const saved = process.env.NODE_ENV;
  afterEach(() => {
    if (saved === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = saved;
  });

  it.each([0, 0.001, 50, 99.99, 100])('accepts %p', (value) => {
    expect(checkProgress(value)).toBe(true);
  });

  it.each([-0.001, -1, 100.001, 1000, NaN, Infinity, -Infinity])('throws InvalidProgressError for %p outside production', (value) => {
    process.env.NODE_ENV = 'development';
    let error: unknown;
    try {
      checkProgress(value);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidProgressError);
    expect((error as InvalidProgressError).code).toBe(ErrorCode.INVALID_PROGRESS);
    expect((error as Error).message).toBe(`progress(${String(value)}) is invalid: progress is a finite percentage from 0 to 100.`);
  });

  it('throws for a value that is not a number at all', () => {
    expect(() => checkProgress('50' as unknown as number)).toThrow(InvalidProgressError);
  });

  it('throws when NODE_ENV is unset', () => {
    delete process.env.NODE_ENV;
    expect(() => checkProgress(101)).toThrow(InvalidProgressError);
  });

  it.each([-1, 101, NaN, Infinity])('answers false for %p in production, without throwing', (value) => {
    process.env.NODE_ENV = 'production';
    expect(checkProgress(value)).toBe(false);
  });
});

describe('ProgressChannel: what is delivered', () => {
  const saved = process.env.NODE_ENV;
  afterEach(() => {
    if (saved === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = saved;
  });

  it('delivers a report with its message, and undefined when there is none', async () => {
    const { send, sent } = instantSend();
    const channel = new ProgressChannel(send);
    channel.report(10, 'ten');
    channel.report(20);
    await channel.flush();
    expect(sent).toEqual([
      [10, 'ten'],
      [20, undefined]
    ]);
  });

  it('starts the first write at once, during report()', () => {
    const s = manualSend();
    const channel = new ProgressChannel(s.send);
    channel.report(1);
    expect(s.sent()).toEqual([1]);
    s.calls[0].resolve();
  });

  it('accepts 0 first and 100 last', async () => {
    const { send, values } = instantSend();
    const channel = new ProgressChannel(send);
    channel.report(0);
    channel.report(100);
    await channel.flush();
    expect(values()).toEqual([0, 100]);
  });

  it('drops a report that is not above the last one (equal or lower)', async () => {
    const { send, sent } = instantSend();
    const channel = new ProgressChannel(send);
    channel.report(10, 'a');
    channel.report(10, 'same');
    channel.report(5, 'back');
    channel.report(20, 'b');
    channel.report(0, 'zero');
    channel.report(20.0001, 'c');
    await channel.flush();
    expect(sent).toEqual([
      [10, 'a'],
      [20, 'b'],
      [20.0001, 'c']
    ]);
  });

  it('compares with the last report even when it has already been written', async () => {
    const { send, values } = instantSend();
    const channel = new ProgressChannel(send);
    channel.report(50);
    await turn();
    expect(values()).toEqual([50]);
    channel.report(40);
    channel.report(50);
    channel.report(60);
    await channel.flush();
    expect(values()).toEqual([50, 60]);
  });

  it.each([-1, 100.5, NaN, Infinity, -Infinity])(
    'throws InvalidProgressError for %p outside production, sends nothing for it, and keeps working',
    async (value) => {
      process.env.NODE_ENV = 'development';
      const { send, values } = instantSend();
      const channel = new ProgressChannel(send);
      channel.report(10);
      expect(() => channel.report(value)).toThrow(InvalidProgressError);
      channel.report(20);
      await channel.flush();
      expect(values()).toEqual([10, 20]);
    }
  );

  it('validates before the monotonic rule: a low out-of-range value is an error, not a silent drop', () => {
    process.env.NODE_ENV = 'development';
    const channel = new ProgressChannel(instantSend().send);
    channel.report(50);
    expect(() => channel.report(-5)).toThrow(InvalidProgressError);
  });

  it('an invalid report does not raise the bar for the next one', async () => {
    process.env.NODE_ENV = 'development';
    const { send, values } = instantSend();
    const channel = new ProgressChannel(send);
    expect(() => channel.report(150)).toThrow(InvalidProgressError);
    channel.report(1);
    await channel.flush();
    expect(values()).toEqual([1]);
  });

  it.each([-1, 150, NaN, Infinity])('drops %p silently in production', async (value) => {
    process.env.NODE_ENV = 'production';
    const { send, values } = instantSend();
    const channel = new ProgressChannel(send);
    channel.report(10);
    expect(() => channel.report(value)).not.toThrow();
    channel.report(40);
    await channel.flush();
    expect(values()).toEqual([10, 40]);
  });

  it('keeps going when a write fails: the failure is swallowed and the next report is delivered', async () => {
    const written: number[] = [];
    const channel = new ProgressChannel(async (p) => {
      written.push(p);
      if (p === 10) throw new Error('transport hiccup');
    });
    channel.report(10);
    channel.report(20);
    await expect(channel.flush()).resolves.toBeUndefined();
    expect(written).toEqual([10, 20]);
  });
});

describe('ProgressChannel: one write at a time, the first 16 in order', () => {
  it('writes one report at a time, each after the previous write settled, in order', async () => {
    const s = manualSend();
    const channel = new ProgressChannel(s.send);
    for (const p of [1, 2, 3]) channel.report(p, `m${p}`);
    expect(s.sent()).toEqual([1]);
    await turn();
    expect(s.sent()).toEqual([1]); // still in flight: nothing else is written
    s.calls[0].resolve();
    await s.untilCalled(2);
    expect(s.sent()).toEqual([1, 2]);
    s.calls[1].resolve();
    await s.untilCalled(3);
    expect(s.calls.map((c) => [c.progress, c.message])).toEqual([
      [1, 'm1'],
      [2, 'm2'],
      [3, 'm3']
    ]);
    await s.drain(channel);
    expect(s.send).toHaveBeenCalledTimes(3);
  });

  it('delivers each of the first 16 reports, in order, while writes are slow', async () => {
    const s = manualSend();
    const channel = new ProgressChannel(s.send);
    for (const p of range(1, 16)) channel.report(p);
    for (let n = 1; n <= 16; n++) {
      await s.untilCalled(n);
      expect(s.sent()).toEqual(range(1, n));
      s.calls[n - 1].resolve();
    }
    await s.drain(channel);
    expect(s.sent()).toEqual(range(1, 16));
  });

  it('delivers all 16 of a synchronous burst with an instant writer', async () => {
    const { send, values } = instantSend();
    const channel = new ProgressChannel(send);
    for (const p of range(1, 16)) channel.report(p);
    await channel.flush();
    expect(values()).toEqual(range(1, 16));
  });

  it('does not count dropped reports toward the burst', async () => {
    const s = manualSend();
    const channel = new ProgressChannel(s.send);
    channel.report(1);
    for (let i = 0; i < 40; i++) channel.report(i % 2 === 0 ? 1 : 0.5); // all dropped
    for (const p of range(2, 16)) channel.report(p);
    await s.drain(channel);
    expect(s.sent()).toEqual(range(1, 16));
  });

  // Regression: past the 16th accepted report, a new report used to replace the last QUEUED one
  // even when that one was still one of the first 16 (queued behind a write in flight).
  it('delivers each of the first 16 reports even when more arrive while they are still queued', async () => {
    const s = manualSend();
    const channel = new ProgressChannel(s.send);
    for (const p of range(1, 20)) channel.report(p);
    await s.drain(channel);
    expect(s.sent()).toEqual([...range(1, 16), 20]);
  });

  // README ("Progress"): "A tight loop of 20,000 yields sends 17 notifications, the last one at 100."
  // A synchronous loop (a plain handler calling ctx.progress) used to send 16 (the same bug).
  it('a tight synchronous loop of 20,000 reports sends 17 notifications: the first 16, then 100', async () => {
    const { send, values } = instantSend();
    const channel = new ProgressChannel(send);
    const n = 20_000;
    for (let i = 1; i <= n; i++) channel.report((i / n) * 100);
    await channel.flush();
    expect(values()).toEqual([...range(1, 16).map((i) => (i / n) * 100), 100]);
  });
});

describe('ProgressChannel: flooding past the burst', () => {
  it('a tight loop of 20,000 reports does not flood: strictly increasing, at most 17 writes, the last at 100', async () => {
    const { send, values } = instantSend();
    const channel = new ProgressChannel(send);
    const n = 20_000;
    for (let i = 1; i <= n; i++) channel.report((i / n) * 100);
    await channel.flush();
    const written = values();
    expect(written.length).toBeGreaterThanOrEqual(16);
    expect(written.length).toBeLessThanOrEqual(17);
    expect(written[0]).toBe(100 / n);
    expect(written[written.length - 1]).toBe(100);
    for (let i = 1; i < written.length; i++) expect(written[i]).toBeGreaterThan(written[i - 1]);
  });

  it('a tight loop of 20,000 yields from an async generator sends 17 notifications, the last at 100', async () => {
    const { send, values } = instantSend();
    const channel = new ProgressChannel(send);
    const n = 20_000;
    async function* flood() {
      for (let i = 1; i <= n; i++) yield progress((i / n) * 100);
    }
    for await (const event of flood()) channel.report(event.percent, event.message);
    await channel.flush();
    const written = values();
    expect(written).toHaveLength(17);
    expect(written.slice(0, 16)).toEqual(range(1, 16).map((i) => (i / n) * 100));
    expect(written[16]).toBe(100);
  });

  it('past the burst, reports made while a turn is awaited coalesce into the newest, message included', async () => {
    const s = manualSend();
    const channel = new ProgressChannel(s.send);
    for (const p of range(1, 16)) channel.report(p);
    for (let n = 1; n < 16; n++) {
      await s.untilCalled(n);
      s.calls[n - 1].resolve();
    }
    await s.untilCalled(16);
    s.calls[15].resolve();
    // The 16th write has settled; the channel now lets the producer run for a turn.
    channel.report(17, 'a');
    channel.report(18, 'b');
    channel.report(19, 'c');
    await s.untilCalled(17);
    expect(s.calls[16]).toMatchObject({ progress: 19, message: 'c' });
    await s.drain(channel);
    expect(s.sent()).toEqual([...range(1, 16), 19]);
  });

  it('past the burst, a report written before the next one arrives is not dropped', async () => {
    const s = manualSend();
    const channel = new ProgressChannel(s.send);
    for (let n = 1; n <= 30; n++) {
      channel.report(n);
      await s.untilCalled(n);
      s.calls[n - 1].resolve();
    }
    await s.drain(channel);
    expect(s.sent()).toEqual(range(1, 30));
  });

  it('past the burst, writes at most one notification per event-loop turn, and the latest is delivered', async () => {
    let currentTurn = 0;
    const turns: number[] = [];
    const written: number[] = [];
    const channel = new ProgressChannel(async (p) => {
      turns.push(currentTurn);
      written.push(p);
    });
    let value = 0;
    for (currentTurn = 0; currentTurn < 40; currentTurn++) {
      for (let j = 0; j < 5; j++) channel.report(++value / 2); // 200 reports, up to 100
      await turn();
    }
    await channel.flush();
    const pastBurst = turns.slice(16);
    expect(pastBurst.length).toBeGreaterThan(10);
    for (let i = 1; i < pastBurst.length; i++) expect(pastBurst[i]).toBeGreaterThan(pastBurst[i - 1]);
    expect(written.length).toBeLessThan(200);
    expect(written[written.length - 1]).toBe(100);
    for (let i = 1; i < written.length; i++) expect(written[i]).toBeGreaterThan(written[i - 1]);
  });
});

describe('ProgressChannel: flush()', () => {
  it('resolves at once when nothing was reported, and refuses later reports', async () => {
    const s = manualSend();
    const channel = new ProgressChannel(s.send);
    await channel.flush();
    channel.report(10);
    expect(s.send).not.toHaveBeenCalled();
  });

  it('waits for every write to settle, not just the first', async () => {
    const s = manualSend();
    const channel = new ProgressChannel(s.send);
    channel.report(10);
    channel.report(20);
    channel.report(30);
    let flushed = false;
    const flushing = channel.flush().then(() => (flushed = true));
    await turn();
    expect(flushed).toBe(false);
    for (let n = 1; n <= 3; n++) {
      await s.untilCalled(n);
      await turn();
      expect(flushed).toBe(false);
      s.calls[n - 1].resolve();
    }
    await flushing;
    expect(flushed).toBe(true);
    expect(s.sent()).toEqual([10, 20, 30]);
  });

  it('waits for a report made while it is waiting (the channel closes only once all is written)', async () => {
    const s = manualSend();
    const channel = new ProgressChannel(s.send);
    channel.report(10);
    const flushing = channel.flush();
    channel.report(20);
    s.calls[0].resolve();
    await s.untilCalled(2);
    s.calls[1].resolve();
    await flushing;
    expect(s.sent()).toEqual([10, 20]);
  });

  it('waits for the coalesced write past the burst', async () => {
    const s = manualSend();
    const channel = new ProgressChannel(s.send);
    for (const p of range(1, 16)) channel.report(p);
    for (let n = 1; n <= 16; n++) {
      await s.untilCalled(n);
      s.calls[n - 1].resolve();
    }
    channel.report(50);
    channel.report(60);
    let flushed = false;
    const flushing = channel.flush().then(() => (flushed = true));
    await s.untilCalled(17);
    expect(flushed).toBe(false);
    s.calls[16].resolve();
    await flushing;
    expect(s.sent()).toEqual([...range(1, 16), 60]);
  });

  it('resolves even when writes fail', async () => {
    const s = manualSend();
    const channel = new ProgressChannel(s.send);
    channel.report(10);
    channel.report(20);
    const flushing = channel.flush();
    s.calls[0].reject(new Error('closed'));
    await s.untilCalled(2);
    s.calls[1].reject(new Error('closed'));
    await expect(flushing).resolves.toBeUndefined();
  });

  it('refuses reports once it has resolved, and a second flush resolves too', async () => {
    const { send, values } = instantSend();
    const channel = new ProgressChannel(send);
    channel.report(10);
    await channel.flush();
    channel.report(20);
    await channel.flush();
    expect(values()).toEqual([10]);
  });
});

describe('ProgressChannel: discard()', () => {
  it('drops what is not yet written and refuses later reports; the write in flight completes', async () => {
    const s = manualSend();
    const channel = new ProgressChannel(s.send);
    channel.report(10);
    channel.report(20);
    channel.report(30);
    channel.discard();
    channel.report(40);
    let flushed = false;
    const flushing = channel.flush().then(() => (flushed = true));
    await turn();
    expect(flushed).toBe(false); // the write already started is still awaited
    s.calls[0].resolve();
    await flushing;
    await turn();
    expect(s.sent()).toEqual([10]);
  });

  it('on an idle channel, makes every later report a no-op', async () => {
    const s = manualSend();
    const channel = new ProgressChannel(s.send);
    channel.discard();
    channel.report(10);
    await channel.flush();
    expect(s.send).not.toHaveBeenCalled();
  });

  it('past the burst, drops the coalesced report waiting for its turn', async () => {
    const { send, values } = instantSend();
    const channel = new ProgressChannel(send);
    for (const p of range(1, 16)) channel.report(p);
    await turn(); // the 16 are written; the channel is now waiting a turn
    channel.report(50);
    channel.discard();
    await channel.flush();
    expect(values()).toEqual(range(1, 16));
  });
});
