import { ErrorCode } from '../../src';
import { UpstreamError } from '../../src/advanced';
import { UpstreamConnection } from '../../src/gateway/upstream-connection';
import { resolveTarget } from '../../src/gateway/upstream-target';
import { startHostileHttp } from '../fixtures/hostile-upstreams/hostile-http';
import { bench, gatewayLog, HOSTILE, textOf, type Bench, type Front } from '../helpers/hostile-gateway';

/**
 * Hostile and broken upstreams, the calls' side (issue 43, item 6): an upstream that crashes in
 * the middle of a call, and one whose call never answers. A well-behaved upstream sits beside it
 * behind one gateway (`proxyServers`); real SDK clients at the front. Waits are on answers and log
 * lines; the one timer is the front client's own request timeout, the feature under test.
 */

const hostile = { command: process.execPath, args: [HOSTILE, 'normal'] };
let current: Bench | undefined;

// Child processes and megabytes on a shared machine: generous, never a synchronization.
jest.setTimeout(90_000);

afterEach(async () => {
  await current?.close();
  current = undefined;
});

async function stats(front: Front): Promise<{ hanging: unknown[]; cancelled: unknown[] }> {
  return JSON.parse(textOf(await front.client.callTool({ name: 'bad.stats', arguments: {} }))) as never;
}

/** Runs `check` until it holds (each try is a round trip, not a timer); fails after 200 tries. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) if (await check()) return;
  throw new Error('the condition never held');
}

describe('a crash mid-call', () => {
  it("the call ends with an error naming the upstream; the other upstream's call in flight and later calls are unaffected", async () => {
    const log = gatewayLog();
    current = await bench(hostile, log);
    const gw = current;
    const [a, b] = [await gw.front(), await gw.front()];
    const wentDown = log.logged('upstream "bad" went down');
    const counting = b.client.callTool({ name: 'good.count', arguments: {} });
    const crashed = await a.client.callTool({ name: 'bad.crash', arguments: {} });
    expect(crashed.isError).toBe(true);
    expect(textOf(crashed)).toMatch(/upstream MCP server .*hostile-stdio\.js normal is unavailable: the connection closed/);
    expect(textOf(await counting)).toMatch(/3/);
    await wentDown;
    expect(gw.health().find((h) => h.name === 'bad')!.state).toBe('down');
    // Its calls now fail at once, naming it; the other upstream answers both front clients.
    expect(textOf(await a.client.callTool({ name: 'bad.ok', arguments: {} }))).toMatch(/The upstream "bad" is down/);
    expect(textOf(await a.client.callTool({ name: 'good.count', arguments: {} }))).toMatch(/3/);
    expect(textOf(await b.client.callTool({ name: 'good.count', arguments: {} }))).toMatch(/3/);
  });

  it('the error is an UpstreamError (UPSTREAM_FAILED)', async () => {
    const connection = await UpstreamConnection.open(resolveTarget(hostile), '2025', {
      toolsChanged: () => undefined,
      resourceUpdated: () => undefined,
      closed: () => undefined,
      log: () => undefined
    });
    try {
      const call = connection.start('crash', {});
      const event = await call.next();
      expect(event.kind).toBe('failed');
      const error = (event as { error: Error }).error;
      expect(error).toBeInstanceOf(UpstreamError);
      expect((error as UpstreamError).code).toBe(ErrorCode.UPSTREAM_FAILED);
    } finally {
      await connection.close();
    }
  });
});

describe('a call that never answers', () => {
  it("the front client's cancel and its timeout end it, the upstream is told, and the call's slot is released", async () => {
    // Two slots, no queue: a call still holding its slot would make the third call busy.
    current = await bench(hostile, gatewayLog(), { maxActive: 2, maxQueue: 0 });
    const gw = current;
    const [a, b] = [await gw.front(), await gw.front()];

    const cancel = new AbortController();
    const cancelled = a.client.callTool({ name: 'bad.hang', arguments: {} }, { signal: cancel.signal }).catch((e: Error) => e);
    await until(async () => (await stats(b)).hanging.length === 1);
    // b is served beside it (the other slot).
    expect(textOf(await b.client.callTool({ name: 'good.count', arguments: {} }))).toMatch(/3/);
    cancel.abort(new Error('the user cancelled'));
    expect(await cancelled).toBeInstanceOf(Error);
    await until(async () => (await stats(b)).cancelled.length === 1);

    const timedOut = await a.client.callTool({ name: 'bad.hang', arguments: {} }, { timeout: 200 }).catch((e: Error) => e);
    expect(String(timedOut)).toMatch(/timed out|timeout/i);
    await until(async () => (await stats(b)).cancelled.length === 2);

    // Both slots are free again: two calls at once are served, none refused as busy.
    const both = await Promise.all([
      a.client.callTool({ name: 'good.count', arguments: {} }),
      b.client.callTool({ name: 'bad.ok', arguments: {} })
    ]);
    expect(textOf(both[0])).toMatch(/3/);
    expect(textOf(both[1])).toBe('ok');
    expect(gw.set.waitingQuestions).toBe(0);
  });
});

describe('over HTTP', () => {
  it("a call that never answers ends on the front's cancel and the upstream is told; a crash mid-answer ends with an error", async () => {
    const server = await startHostileHttp('small');
    try {
      current = await bench({ url: server.url }, gatewayLog(), { maxActive: 2, maxQueue: 0 });
      const gw = current;
      const [a, b] = [await gw.front(), await gw.front()];
      const cancel = new AbortController();
      const hanging = a.client.callTool({ name: 'bad.hang', arguments: {} }, { signal: cancel.signal }).catch((e: Error) => e);
      await server.events.seen('hang');
      expect(textOf(await b.client.callTool({ name: 'good.count', arguments: {} }))).toMatch(/3/);
      cancel.abort(new Error('the user cancelled'));
      expect(await hanging).toBeInstanceOf(Error);
      // The upstream is told: its request is dropped, or a notifications/cancelled is posted (whichever it sees first).
      await Promise.race([server.events.seen('aborted'), server.events.seen('cancelled')]);

      const crashed = await a.client.callTool({ name: 'bad.crash', arguments: {} });
      expect(crashed.isError).toBe(true);
      expect(textOf(crashed)).toContain(server.url);
      // Both slots are free: two calls at once are served.
      const both = await Promise.all([
        a.client.callTool({ name: 'good.count', arguments: {} }),
        b.client.callTool({ name: 'good.count', arguments: {} })
      ]);
      expect(both.map(textOf).join()).toMatch(/3.*3/);
    } finally {
      await current?.close();
      current = undefined;
      await server.close();
    }
  });
});

describe('questions over HTTP', () => {
  it("a question on a call's own stream reaches only that call's front client, with another front client's call in flight", async () => {
    const server = await startHostileHttp('small');
    try {
      current = await bench({ url: server.url }, gatewayLog());
      const [a, b] = [await current.front(), await current.front()];
      const cancel = new AbortController();
      const hanging = b.client.callTool({ name: 'bad.hang', arguments: {} }, { signal: cancel.signal }).catch((e: Error) => e);
      await server.events.seen('hang');
      expect(textOf(await a.client.callTool({ name: 'bad.ask', arguments: {} }))).toContain('"action":"accept"');
      cancel.abort();
      await hanging;
      expect(a.asked).toEqual(['elicitation/create']);
      expect(b.asked).toEqual([]);
    } finally {
      await current?.close();
      current = undefined;
      await server.close();
    }
  });

  it('a question on the standalone stream, while a call is in flight, is refused: no call made it', async () => {
    const server = await startHostileHttp('small', true);
    try {
      current = await bench({ url: server.url }, gatewayLog());
      const [a, b] = [await current.front(), await current.front()];
      const cancel = new AbortController();
      const hanging = a.client.callTool({ name: 'bad.hang', arguments: {} }, { signal: cancel.signal }).catch((e: Error) => e);
      await server.events.seen('hang');
      // Every standalone stream open then (the front sessions' upstream sessions, and the shared one) got one; each is answered with a refusal.
      const pushed = server.events.count('pushed');
      expect(pushed).toBeGreaterThan(0);
      await server.events.seen('answered', pushed);
      expect(server.events.count('refused')).toBe(pushed);
      cancel.abort();
      await hanging;
      expect(a.asked).toEqual([]);
      expect(b.asked).toEqual([]);
    } finally {
      await current?.close();
      current = undefined;
      await server.close();
    }
  });
});
