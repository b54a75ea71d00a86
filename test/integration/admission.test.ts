/**
 * Admission before the chain (`CompiledChain.admit`): where every step outside the queue does
 * nothing on the way in, a call waits for its queue slot before it enters its chain, and the queue
 * step holds the slot it was admitted with. What must hold either way: a call admitted and then
 * aborted before its queue step held the slot gives the slot back (the next call runs), a
 * cancelled waiter answers as before, and a member with work before the queue (a timeout) or a
 * request whose stage waits are timed takes its slot in the queue step as before.
 */
import { Action, FusionApp, Input, Prompt, ToolProvider, type CallQueue } from '../../src';
import { connectTestClient } from '../../src/testing';
import { IsInt, IsString } from 'class-validator';

class Job {
  @IsInt()
  n!: number;
}

/** A promise the test settles. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

class Brief {
  @IsString()
  job!: string;
}

const gates = { entered: deferred(), release: deferred() };
let runs: number[] = [];

@ToolProvider()
class Jobs {
  @Action('jobs.run', { description: 'Runs one job; job 0 waits for the test to release it.' })
  async run(@Input() input: Job): Promise<string> {
    runs.push(input.n);
    if (input.n === 0) {
      gates.entered.resolve();
      await gates.release.promise;
    }
    return `job ${input.n} done`;
  }

  @Prompt('jobs.brief', { description: 'A prompt: its failures are JSON-RPC errors, never results.' })
  brief(@Input() input: Brief): string {
    runs.push(Number(input.job));
    return `Brief for job ${input.job}`;
  }

  @Action('jobs.timed', { description: 'Like run, with a timeout (work before the queue: its timer).', timeoutMs: 60_000 })
  timed(@Input() input: Job): string {
    runs.push(input.n);
    return `job ${input.n} done`;
  }
}

function appOf(): FusionApp {
  return FusionApp.create({ name: 'admission', version: '1.0.0', tools: [Jobs], concurrency: { maxActive: 1, maxQueue: 10 } });
}

describe('admission before the chain', () => {
  beforeEach(() => {
    gates.entered = deferred();
    gates.release = deferred();
    runs = [];
  });

  it('admits a member whose outer steps do nothing on the way in, and not one with a timeout', () => {
    const app = appOf();
    const members = (app as unknown as { parts: { toolClasses: { catalogs: { tools: Map<string, { admit?: unknown }> } } } }).parts
      .toolClasses.catalogs.tools;
    expect(members.get('jobs.run')?.admit).toBeDefined();
    expect(members.get('jobs.timed')?.admit).toBeUndefined();
    return app.close();
  });

  it('gives back a slot it was admitted with when the call is aborted before its queue step holds it', async () => {
    // A queue of the user's own, so that the test grants the slot and aborts the call in the same turn.
    let grant!: (release: () => void) => void;
    let released = 0;
    const queue: CallQueue = {
      acquire: () => new Promise((resolve) => (grant = resolve)),
      active: 0,
      waiting: 0
    };
    const app = FusionApp.create({ name: 'admission', version: '1.0.0', tools: [Jobs], concurrency: { queue } });
    const controller = new AbortController();
    const call = app.callTool('jobs.run', { n: 1 }, { signal: controller.signal });
    await Promise.resolve();
    grant(() => released++);
    controller.abort('gone');
    const answer = await call;
    expect(answer.isError).toBe(true);
    expect(released).toBe(1);
    expect(runs).toEqual([]);
    await app.close();
  });

  it('cancels a call waiting for admission at once, and the next call runs', async () => {
    const app = appOf();
    const first = app.callTool('jobs.run', { n: 0 });
    await gates.entered.promise;
    const controller = new AbortController();
    const waiting = app.callTool('jobs.run', { n: 1 }, { signal: controller.signal });
    controller.abort('the client gave up');
    const answer = await waiting;
    expect(answer).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/^The call was cancelled/) }] });
    gates.release.resolve();
    await first;
    await expect(app.callTool('jobs.run', { n: 2 })).resolves.toMatchObject({ content: [{ type: 'text', text: 'job 2 done' }] });
    await expect(app.callTool('jobs.timed', { n: 3 })).resolves.toMatchObject({ content: [{ type: 'text', text: 'job 3 done' }] });
    expect(runs).toEqual([0, 2, 3]);
    await app.close();
  });

  it('refuses a call when the line is full, as the queue step does', async () => {
    const app = FusionApp.create({ name: 'admission', version: '1.0.0', tools: [Jobs], concurrency: { maxActive: 1, maxQueue: 0 } });
    const first = app.callTool('jobs.run', { n: 0 });
    await gates.entered.promise;
    const refused = await app.callTool('jobs.run', { n: 1 });
    expect(refused.isError).toBe(true);
    expect(refused.content).toEqual([{ type: 'text', text: expect.stringMatching(/busy|queue/i) }]);
    gates.release.resolve();
    await first;
    expect(runs).toEqual([0]);
    await app.close();
  });

  it('ends a prompt cancelled in line with a JSON-RPC error, from the abort itself, and keeps serving', async () => {
    // A prompt has no error result: its failure is thrown, in the abort's own dispatch, and must become the request's error.
    const app = appOf();
    const test = await connectTestClient(app, { era: 'legacy-memory' });
    const first = app.callTool('jobs.run', { n: 0 });
    await gates.entered.promise;
    const controller = new AbortController();
    const waiting = test.client.getPrompt({ name: 'jobs.brief', arguments: { job: '1' } }, { signal: controller.signal });
    // The prompt is in line once the app counts it (the queued call holds no slot yet).
    while (app.activeCalls < 2) await new Promise((resolve) => setImmediate(resolve));
    controller.abort('the client gave up');
    await expect(waiting).rejects.toThrow();
    gates.release.resolve();
    await first;
    await expect(test.client.getPrompt({ name: 'jobs.brief', arguments: { job: '2' } })).resolves.toMatchObject({
      messages: [{ content: { type: 'text', text: 'Brief for job 2' } }]
    });
    expect(runs).toEqual([0, 2]);
    await test.close();
    await app.close();
  });
});
