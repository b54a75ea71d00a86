import { IsInt, Min } from 'class-validator';
import { Action, Ctx, FusionApp, Input, ToolProvider, progress, type CallContext } from '../../src';
import { connectTestClient } from '../../src/testing';
import { recordWire, type WireMessage } from '../helpers/wire-log';

class N {
  @IsInt() @Min(1) n!: number;
}

@ToolProvider()
class ProgressTools {
  @Action('tenths', { description: 'Ten progress steps' })
  async *tenths() {
    for (let i = 1; i <= 10; i++) yield progress(i * 10, `step ${i}`);
    return 'done';
  }

  @Action('wobbly', { description: 'Non-monotonic progress and other yields' })
  async *wobbly() {
    yield progress(10, 'a');
    yield progress(10, 'same');
    yield 'not progress';
    yield { percent: 50 };
    yield progress(5, 'back');
    yield progress(20, 'b');
    return 'ok';
  }

  @Action('flood', { description: 'A tight loop of many yields' })
  async *flood(@Input() input: N) {
    for (let i = 1; i <= input.n; i++) yield progress((i / input.n) * 100);
    return `flooded ${input.n}`;
  }

  @Action('bad.progress', { description: 'Progress out of range' })
  async *bad() {
    yield progress(150, 'too far');
    return 'never';
  }

  @Action('plain.progress', { description: 'A plain handler reporting through the context' })
  async plain(@Ctx() ctx: CallContext) {
    ctx.progress(25, 'quarter');
    ctx.progress(75, 'three quarters');
    return { value: 1 };
  }
}

const progressOf = (log: WireMessage[]) =>
  log.filter((m) => m.method === 'notifications/progress').map((m) => [m.params!.progress, m.params!.message ?? null]);

describe('progress out of generator handlers', () => {
  const app = FusionApp.create({ tools: [ProgressTools] });
  afterAll(() => app.close());

  for (const era of ['modern', 'legacy-http', 'legacy-memory'] as const) {
    it(`${era}: every notification arrives before the response, with token, total 100 and message`, async () => {
      const { client, close } = await connectTestClient(app, { era });
      const log = recordWire(client);
      const seen: number[] = [];
      const result = await client.callTool({ name: 'tenths', arguments: {} }, { onprogress: (p) => seen.push(p.progress) });
      expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
      const notes = log.filter((m) => m.method === 'notifications/progress');
      expect(notes).toHaveLength(10);
      expect(notes[0].params).toMatchObject({ progress: 10, total: 100, message: 'step 1' });
      expect(notes[0].params!.progressToken).toBeDefined();
      const responseIndex = log.findIndex((m) => m.result !== undefined);
      const lastProgressIndex = log.map((m) => m.method).lastIndexOf('notifications/progress');
      expect(lastProgressIndex).toBeLessThan(responseIndex);
      expect(seen.slice(0, 9)).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90]);
      await close();
    });
  }

  it('sends nothing without a progress token, and allocates no channel', async () => {
    const { client, close } = await connectTestClient(app, { era: 'legacy-memory' });
    const log = recordWire(client);
    const result = await client.callTool({ name: 'tenths', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(log.filter((m) => m.method === 'notifications/progress')).toEqual([]);
    await close();
    const calls: number[] = [];
    await app.callTool('tenths', {}); // no onProgress: the harness passes no channel either
    expect(calls).toEqual([]);
  });

  it('sends only strictly increasing progress and ignores other yields', async () => {
    const reports: Array<[number, string | undefined]> = [];
    const result = await app.callTool('wobbly', {}, { onProgress: (p, m) => reports.push([p, m]) });
    expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(reports).toEqual([
      [10, 'a'],
      [20, 'b']
    ]);
  });

  it('makes an out-of-range value a clear error in development', async () => {
    const result = await app.callTool('bad.progress', {}, { onProgress: () => undefined });
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'progress(150) is invalid: progress is a finite percentage from 0 to 100.' }]
    });
  });

  it('coalesces a flood of yields and always delivers the latest state', async () => {
    const { client, close } = await connectTestClient(app, { era: 'legacy-memory' });
    const log = recordWire(client);
    const result = await client.callTool({ name: 'flood', arguments: { n: 20_000 } }, { onprogress: () => undefined });
    expect(result.content).toEqual([{ type: 'text', text: 'flooded 20000' }]);
    const values = progressOf(log).map(([p]) => p as number);
    expect(values.length).toBeGreaterThan(0);
    expect(values.length).toBeLessThan(20_000);
    expect(values[values.length - 1]).toBe(100);
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1]);
    await close();
  });

  it('lets plain handlers report progress through the context', async () => {
    const { client, close } = await connectTestClient(app, { era: 'modern' });
    const log = recordWire(client);
    const result = await client.callTool({ name: 'plain.progress', arguments: {} }, { onprogress: () => undefined });
    expect(result.structuredContent).toEqual({ value: 1 });
    expect(progressOf(log)).toEqual([
      [25, 'quarter'],
      [75, 'three quarters']
    ]);
    await close();
  });
});
