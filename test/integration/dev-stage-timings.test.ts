import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { trace } from '@opentelemetry/api';
import { Action, FusionApp, Mutation, ToolProvider } from '../../src';
import { StageTimings } from '../../packages/cli/src/dev/stage-timings';
import type { DevCallTimings } from '../../packages/cli/src/inspector';

@ToolProvider()
class TimedTools {
  @Action('read', { description: 'Reads' })
  read(): string {
    return 'read';
  }

  @Mutation('write', { description: 'Writes' })
  write(): string {
    return 'written';
  }
}

/**
 * The inspector's dev panel shows each call's stage timings: `mcpfusion dev` registers a tracer
 * provider that turns the framework's stage spans into durations when the request's span ends.
 */
describe('mcpfusion dev: stage timings of each call', () => {
  let app: FusionApp;
  let client: Client;
  const timings = new StageTimings();
  const seen: DevCallTimings[] = [];
  let next: ((timings: DevCallTimings) => void) | undefined;
  const nextTimings = () => new Promise<DevCallTimings>((resolve) => (next = resolve));

  beforeAll(async () => {
    expect(timings.register()).toBe(true);
    timings.on((t) => {
      seen.push(t);
      next?.(t);
    });
    app = FusionApp.create({ name: 'timed', version: '1', tools: [TimedTools] });
    const { url } = await app.listen({ transport: 'http', port: 0, handleSignals: false });
    client = new Client({ name: 'timings', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(url!));
  });

  afterAll(async () => {
    await client.close();
    await app.close();
    trace.disable();
  });

  it('gives each tool call its stages in chain order, with the total first', async () => {
    const read = nextTimings();
    await client.callTool({ name: 'read', arguments: {} });
    const timed = await read;
    expect(timed.kind).toBe('tool');
    expect(timed.name).toBe('read');
    expect(timed.stages[0].stage).toBe('total');
    const names = timed.stages.map((s) => s.stage);
    expect(names).toContain('handler');
    for (const stage of timed.stages) expect(stage.ms).toBeGreaterThanOrEqual(0);
  });

  it('shows a mutation waiting on the lock as its own stage', async () => {
    const write = nextTimings();
    await client.callTool({ name: 'write', arguments: {} });
    const names = (await write).stages.map((s) => s.stage);
    expect(names).toContain('mutation-lock');
    expect(names.indexOf('mutation-lock')).toBeLessThan(names.indexOf('handler'));
  });

  it('says nothing of requests that are not a member call (a list)', async () => {
    const before = seen.length;
    await client.listTools();
    const read = nextTimings();
    await client.callTool({ name: 'read', arguments: {} });
    await read;
    expect(seen.length).toBe(before + 1);
  });
});
