import { ErrorCode, type ServerEntry } from '../../src';
import { UpstreamError } from '../../src/advanced';
import { UpstreamConnection } from '../../src/gateway/upstream-connection';
import { resolveTarget } from '../../src/gateway/upstream-target';
import { UPSTREAM_LIMITS } from '../../src/gateway/guards/limits';
import { startHostileHttp } from '../fixtures/hostile-upstreams/hostile-http';
import { bench, gatewayLog, HOSTILE, MB, memoryInUse, textOf, type Bench } from '../helpers/hostile-gateway';

/**
 * Hostile and broken upstreams (issue 43, item 6). Each case puts a server written to misbehave
 * (raw JSON-RPC over stdio, or a raw HTTP server on 127.0.0.1) beside a well-behaved one behind
 * one gateway (`proxyServers`), with real SDK clients at the front, and shows: the gateway stays
 * up with its memory bounded, the other upstream and the other front clients are unaffected,
 * front calls end with clear errors, and nothing the hostile upstream sends reaches a front client
 * that did not cause it. Waits are on events (a log line, an answer), never on time; memory is
 * measured after a full collection, against a generous bound.
 */

const hostile = (mode: string) => ({ command: process.execPath, args: [HOSTILE, mode] });
let current: Bench | undefined;

// Child processes and megabytes on a shared machine: generous, never a synchronization.
jest.setTimeout(90_000);

afterEach(async () => {
  await current?.close();
  current = undefined;
});

async function start(mode: string | ServerEntry, log = gatewayLog(), concurrency?: { maxActive: number; maxQueue: number }) {
  current = await bench(typeof mode === 'string' ? hostile(mode) : mode, log, concurrency);
  return current;
}

/** The good upstream answers (its `count` reports progress 3 times and says so). */
async function goodAnswers(gw: Bench, front?: Awaited<ReturnType<Bench['front']>>): Promise<void> {
  const client = (front ?? (await gw.front())).client;
  expect(textOf(await client.callTool({ name: 'good.count', arguments: {} }))).toMatch(/3/);
}

/** Growth of the memory in use over `before`, in MB (each kept by test name; `GW_HOSTILE_REPORT=1` prints them). */
const measured: Record<string, number> = {};
const grownMb = (before: number): number => {
  const grown = Math.round(((memoryInUse() - before) / MB) * 10) / 10;
  measured[expect.getState().currentTestName ?? '?'] = grown;
  return grown;
};
afterAll(() => {
  if (process.env.GW_HOSTILE_REPORT) process.stderr.write(`memory growth (MB): ${JSON.stringify(measured, null, 2)}\n`);
});

describe('a flood of notifications', () => {
  it('progress, log and list_changed floods during a call: the call ends, the relistings are coalesced, memory stays bounded', async () => {
    const before = memoryInUse();
    const gw = await start('normal');
    const [a, b] = [await gw.front(), await gw.front()];
    await a.client.setLoggingLevel('debug');
    let progressed = 0;
    const n = 5_000;
    const flood = a.client.callTool({ name: 'bad.flood', arguments: { n } }, { onprogress: () => void progressed++ });
    // The other upstream and the other front client are served during the flood.
    await goodAnswers(gw, b);
    expect(textOf(await flood)).toBe('flooded');
    // 5,000 list_changed notices cost a few listings, not 5,000.
    const stats = JSON.parse(textOf(await a.client.callTool({ name: 'bad.stats', arguments: {} }))) as { listCalls: number };
    expect(stats.listCalls).toBeLessThan(n / 10);
    expect(progressed).toBeGreaterThan(0);
    expect(progressed).toBeLessThanOrEqual(n);
    // b caused nothing, and got nothing of a's call.
    expect(b.notices).toEqual([]);
    expect(b.asked).toEqual([]);
    await goodAnswers(gw, b);
    const grown = grownMb(before);
    expect(grown).toBeLessThan(48);
  });
});

describe('a tool list past the bounds', () => {
  it('one 50 MB tools/list message over stdio: the upstream is not served, the read stopped at the message bound', async () => {
    const before = memoryInUse();
    const gw = await start('big-list');
    const bad = gw.health().find((h) => h.name === 'bad')!;
    expect(bad.state).toBe('down');
    expect(bad.lastError).toContain(`over ${UPSTREAM_LIMITS.maxMessageBytes} bytes`);
    const front = await gw.front();
    expect((await front.client.listTools()).tools.map((t) => t.name).every((name) => name.startsWith('good.'))).toBe(true);
    await goodAnswers(gw, front);
    const refused = await front.client.callTool({ name: 'bad.ok', arguments: {} }).catch((error: Error) => error);
    // Its tools are not listed: a call to one is unknown (never forwarded).
    expect(refused instanceof Error || (refused as { isError?: boolean }).isError).toBeTruthy();
    expect(grownMb(before)).toBeLessThan(40);
  });

  it('a 50 MB tools/list body over HTTP is cut off at the message bound', async () => {
    const server = await startHostileHttp();
    try {
      const before = memoryInUse();
      const gw = await start({ url: server.url });
      const bad = gw.health().find((h) => h.name === 'bad')!;
      expect(bad.state).toBe('down');
      expect(bad.lastError).toContain(`over ${UPSTREAM_LIMITS.maxMessageBytes} bytes`);
      await goodAnswers(gw);
      expect(grownMb(before)).toBeLessThan(40);
    } finally {
      await current?.close();
      current = undefined;
      await server.close();
    }
  });

  it('pages of 5 MB with a cursor that never ends: the listing stops at its byte bound', async () => {
    const before = memoryInUse();
    const gw = await start('paged-list');
    const bad = gw.health().find((h) => h.name === 'bad')!;
    expect(bad.state).toBe('down');
    expect(bad.lastError).toContain(`a tool listing over ${UPSTREAM_LIMITS.maxListingBytes} bytes`);
    await goodAnswers(gw);
    expect(grownMb(before)).toBeLessThan(48);
  });

  it('the bound is an UpstreamError (UPSTREAM_FAILED) naming the upstream', async () => {
    const connection = await UpstreamConnection.open(resolveTarget(hostile('paged-list')), '2025', {
      toolsChanged: () => undefined,
      resourceUpdated: () => undefined,
      closed: () => undefined,
      log: () => undefined
    });
    try {
      const error = await connection.listTools().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UpstreamError);
      expect((error as UpstreamError).code).toBe(ErrorCode.UPSTREAM_FAILED);
      expect((error as Error).message).toContain('hostile-stdio.js paged-list');
    } finally {
      await connection.close();
    }
  });
});

describe("an upstream's tool names and descriptions", () => {
  it('over-long names, descriptions, titles and schemas are left out; names that collide are refused naming both', async () => {
    const gw = await start('odd-tools');
    const front = await gw.front();
    const names = (await front.client.listTools()).tools.map((t) => t.name).filter((name) => name.startsWith('bad.'));
    expect(names.sort()).toEqual(['bad.Search', 'bad.ask', 'bad.crash', 'bad.flood', 'bad.hang', 'bad.ok', 'bad.stats']);
    const log = gw.logs.join('\n');
    expect(log).toContain(`its name is over ${UPSTREAM_LIMITS.maxToolNameChars} characters`);
    expect(log).toContain(`"wordy" is left out: its description is 20000 characters, over ${UPSTREAM_LIMITS.maxDescriptionChars}`);
    expect(log).toContain(`"titled" is left out: its title is over ${UPSTREAM_LIMITS.maxTitleChars} characters`);
    expect(log).toContain(`"heavy" is left out: it is`);
    expect(log).toContain(
      'upstream tool "search" is left out: its front name "bad.search" collides with upstream tool "Search", served first'
    );
    expect(log).toContain('upstream tool "ok" is left out: it is listed twice under "ok"');
    expect(textOf(await front.client.callTool({ name: 'bad.ok', arguments: {} }))).toBe('ok');
    await goodAnswers(gw, front);
  });
});

describe('answers to unknown ids, and garbage on stdout', () => {
  it.each(['unknown-ids', 'garbage'])('%s: ignored and logged a few times only; calls still answer', async (mode) => {
    const before = memoryInUse();
    const gw = await start(mode);
    const front = await gw.front();
    for (let i = 0; i < 5; i++) expect(textOf(await front.client.callTool({ name: 'bad.ok', arguments: {} }))).toBe('ok');
    await goodAnswers(gw, front);
    const noise = gw.logs.filter((line) => line.includes('sent something the gateway ignored'));
    expect(noise.length).toBeGreaterThan(0);
    // Thousands of ids never sent (or lines of garbage), a handful of lines in the log.
    expect(noise.length).toBeLessThanOrEqual(UPSTREAM_LIMITS.loggedNoise + 4);
    expect(gw.health().find((h) => h.name === 'bad')!.state).toBe('up');
    expect(grownMb(before)).toBeLessThan(32);
  });
});

describe('requests no call made', () => {
  it('an endless stream of sampling and elicitation requests is refused, reaches no front client, and gets the upstream disconnected', async () => {
    const before = memoryInUse();
    const log = gatewayLog();
    const disconnected = log.logged('is disconnected');
    const gw = await start('ask-flood', log);
    const [a, b] = [await gw.front(), await gw.front()];
    expect(await disconnected).toContain(`more than ${UPSTREAM_LIMITS.unrequestedBurst} requests no call made`);
    // The set has it down (its first try, or after it), naming why; it is tried again with backoff.
    await log.logged(' down: ');
    expect(gw.health().find((h) => h.name === 'bad')).toMatchObject({
      state: 'down',
      lastError: expect.stringContaining('requests no call made') as unknown
    });
    expect(gw.logs.filter((line) => line.includes('it was refused')).length).toBeLessThanOrEqual(UPSTREAM_LIMITS.loggedNoise + 2);
    await goodAnswers(gw, a);
    expect(a.asked).toEqual([]);
    expect(b.asked).toEqual([]);
    expect(grownMb(before)).toBeLessThan(32);
  });

  it("an upstream's question reaches only the front client whose call caused it; one it cannot attribute reaches none", async () => {
    const gw = await start('normal');
    const [a, b] = [await gw.front(), await gw.front()];
    // a's call asks: a is asked, b is not.
    expect(textOf(await a.client.callTool({ name: 'bad.ask', arguments: {} }))).toContain('"action":"accept"');
    expect(a.asked).toEqual(['elicitation/create']);
    expect(b.asked).toEqual([]);
    // With b's call in flight too, the question could be either's: it is refused, asked of neither.
    const hold = new AbortController();
    const hanging = b.client.callTool({ name: 'bad.hang', arguments: {} }, { signal: hold.signal }).catch((e: Error) => e);
    await waitUntil(async () => stats(a).then((seen) => seen.hanging.length === 1));
    const refused = textOf(await a.client.callTool({ name: 'bad.ask', arguments: {} }));
    hold.abort();
    await hanging;
    expect(refused).toMatch(/cannot say which call asks|cancel/);
    expect(a.asked).toEqual(['elicitation/create']);
    expect(b.asked).toEqual([]);
  });
});

/** What the hostile upstream saw (its `stats` tool). */
async function stats(front: Awaited<ReturnType<Bench['front']>>): Promise<{ listCalls: number; hanging: unknown[]; cancelled: unknown[] }> {
  return JSON.parse(textOf(await front.client.callTool({ name: 'bad.stats', arguments: {} }))) as never;
}

/** Runs `check` until it holds (each try is a round trip, not a timer); fails after 200 tries. */
async function waitUntil(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) if (await check()) return;
  throw new Error('the condition never held');
}
