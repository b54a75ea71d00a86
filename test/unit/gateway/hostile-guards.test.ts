import { createServer, type Server } from 'node:http';
import type { Tool } from '@modelcontextprotocol/client';
import { UpstreamError } from '../../../src/advanced';
import { boundedFetch } from '../../../src/gateway/guards/bounded-fetch';
import { foldedIntoFullQueue } from '../../../src/gateway/guards/event-queue';
import { UPSTREAM_LIMITS } from '../../../src/gateway/guards/limits';
import { ListingBudget, toolProblem } from '../../../src/gateway/guards/listing-guard';
import { NoiseGuard } from '../../../src/gateway/guards/noise-guard';
import { coalesced } from '../../../src/gateway/guards/relist';
import type { CallEvent } from '../../../src/gateway/upstream-call';

/** The gateway's bounds on what an upstream sends, one by one (the hostile-upstream integration tests show them end to end). */

describe('NoiseGuard', () => {
  it('logs the first few of a kind, then one line at each power of ten', () => {
    const lines: string[] = [];
    const guard = new NoiseGuard((line) => lines.push(line));
    for (let i = 0; i < 10_000; i++) guard.note('garbage', 'junk');
    expect(guard.count('garbage')).toBe(10_000);
    expect(lines).toHaveLength(UPSTREAM_LIMITS.loggedNoise + 4);
    expect(lines.at(-1)).toContain('10000 of this kind so far');
  });

  it('lets a burst of requests no call made through (each refused), then says the upstream is past it; the bucket refills with time', () => {
    let now = 1_000_000;
    const guard = new NoiseGuard(
      () => undefined,
      () => now
    );
    for (let i = 0; i < UPSTREAM_LIMITS.unrequestedBurst; i++) expect(guard.unrequested()).toBe(true);
    expect(guard.unrequested()).toBe(false);
    now += 1000;
    for (let i = 0; i < UPSTREAM_LIMITS.unrequestedPerSecond; i++) expect(guard.unrequested()).toBe(true);
    expect(guard.unrequested()).toBe(false);
  });
});

describe('coalesced relisting', () => {
  it('runs one at a time, with at most one more behind it, however many notices', async () => {
    let runs = 0;
    const releases: Array<() => void> = [];
    let secondStarted: () => void = () => undefined;
    const second = new Promise<void>((resolve) => (secondStarted = resolve));
    const relist = coalesced(
      () => {
        if (++runs === 2) secondStarted();
        return new Promise<void>((resolve) => releases.push(resolve));
      },
      () => undefined
    );
    for (let i = 0; i < 10_000; i++) relist();
    expect(runs).toBe(1);
    releases[0]!();
    await second;
    // The 9,999 notices during the first run were one run behind it.
    expect(runs).toBe(2);
    releases[1]!();
  });
});

describe('a call queue past its bound', () => {
  const progress = (n: number): CallEvent => ({ kind: 'progress', progress: n });
  it('folds progress into the last one, drops log messages, keeps the outcome', () => {
    const queue: CallEvent[] = Array.from({ length: UPSTREAM_LIMITS.maxQueuedEvents }, (_, i) => progress(i));
    expect(foldedIntoFullQueue(queue, progress(999))).toBe(true);
    expect(queue.at(-1)).toEqual(progress(999));
    expect(foldedIntoFullQueue(queue, { kind: 'log', level: 'info', data: 'x' })).toBe(true);
    expect(queue).toHaveLength(UPSTREAM_LIMITS.maxQueuedEvents);
    expect(foldedIntoFullQueue(queue, { kind: 'done', result: { content: [] } })).toBe(false);
    expect(foldedIntoFullQueue([], progress(1))).toBe(false);
  });
});

describe('listing bounds', () => {
  const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({ name, inputSchema: { type: 'object' }, ...extra }) as Tool;

  it('counts pages until the last, and says which bound a listing broke', () => {
    const budget = new ListingBudget();
    const page = Array.from({ length: 1000 }, (_, i) => tool(`t${i}`));
    expect(budget.add(page, false)).toBeUndefined();
    expect(budget.add(page, false)).toBeUndefined();
    expect(budget.add(page, false)).toBe(`it lists more than ${UPSTREAM_LIMITS.maxTools} tools`);
    // A listing that ends starts the count again.
    expect(budget.add(page, true)).toBeUndefined();
    expect(budget.add(page, true)).toBeUndefined();
  });

  it('refuses names, descriptions, titles and sizes past the bounds, and collisions naming both', () => {
    const seen = new Map([['ns.search', 'Search']]);
    expect(toolProblem(tool('ok'), 'ns.ok', seen)).toBeUndefined();
    expect(toolProblem(tool('x'.repeat(129)), `ns.${'x'.repeat(129)}`, seen)).toMatch(/name is over 128/);
    expect(toolProblem(tool('bad name'), 'ns.bad name', seen)).toMatch(/not a tool name the protocol allows/);
    expect(toolProblem(tool('search'), 'ns.search', seen)).toBe(
      'its front name "ns.search" collides with upstream tool "Search", served first'
    );
    expect(toolProblem(tool('Search'), 'ns.Search', seen)).toBe('it is listed twice under "Search"');
    expect(toolProblem(tool('w', { description: 'w'.repeat(16_385) }), 'ns.w', seen)).toMatch(/description is 16385 characters/);
    expect(toolProblem(tool('t', { title: 't'.repeat(257) }), 'ns.t', seen)).toMatch(/title is over 256/);
    expect(toolProblem(tool('h', { inputSchema: { type: 'object', description: 'h'.repeat(300_000) } }), 'ns.h', seen)).toMatch(
      /bytes as JSON, over 262144/
    );
  });
});

describe('boundedFetch', () => {
  let server: Server;
  let url: string;
  /** What the server sends: SSE events of `eventBytes`, `events` of them. */
  let plan = { sse: true, events: 1, eventBytes: 10 };

  beforeAll(async () => {
    server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': plan.sse ? 'text/event-stream' : 'application/json' });
      const data = 'x'.repeat(plan.eventBytes);
      for (let i = 0; i < plan.events; i++) response.write(plan.sse ? `data: ${data}\n\n` : data);
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const read = async (): Promise<number> => (await (await boundedFetch(1000, 'test upstream')(url)).arrayBuffer()).byteLength;

  it('passes a stream of many small SSE events larger in all than the bound', async () => {
    plan = { sse: true, events: 200, eventBytes: 100 };
    expect(await read()).toBeGreaterThan(1000);
  });

  it('cuts off one SSE event, or a JSON body, over the bound with an UpstreamError', async () => {
    plan = { sse: true, events: 1, eventBytes: 5000 };
    await expect(read()).rejects.toBeInstanceOf(UpstreamError);
    plan = { sse: true, events: 3, eventBytes: 5000 };
    await expect(read()).rejects.toBeInstanceOf(UpstreamError);
    plan = { sse: false, events: 20, eventBytes: 100 };
    await expect(read()).rejects.toThrow('test upstream sent a message over 1000 bytes');
  });
});
