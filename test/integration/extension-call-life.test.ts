import { FusionApp } from '../../src';
import { MissingCapabilityError, type CallOutcome, type ExtensionCall, type FusionExtension } from '../../src/advanced';
import { connectTestClient } from '../../src/testing';
import { DeskTools, Probe } from '../fixtures/desk-tools';

/**
 * An extension written by a user on the call-life point (`FusionExtension.callLife`): it answers
 * the calls of the tools it applies to at once with a receipt, keeps their progress, lets them
 * run on detached from their request, and is told their outcome as the error boundary maps it.
 * Through a real SDK client, in each era.
 */
const ERAS = ['modern', 'legacy-http', 'legacy-memory'] as const;

/** The receipts extension: what it was told, by receipt id, and the calls it holds (to abort one). */
class Receipts {
  readonly outcomes = new Map<string, Promise<CallOutcome>>();
  readonly progress: string[] = [];
  readonly calls = new Map<string, ExtensionCall>();
  readonly applied: string[] = [];
  readonly seenBy: { tool: string; answered: boolean; optedIn: boolean; params: unknown }[] = [];
  private next = 0;

  readonly extension: FusionExtension = {
    id: 'com.example/receipts',
    callLife: {
      appliesTo: (tool) => {
        this.applied.push(tool.name);
        return tool.name === 'count' || tool.name === 'hang';
      },
      around: (call, next) => {
        this.seenBy.push({
          tool: call.tool.name,
          answered: call.answered,
          optedIn: call.request.clientSettings !== undefined,
          params: call.request.params
        });
        const id = `r${++this.next}`;
        this.calls.set(id, call);
        call.closeLog();
        call.reportProgressTo((percent, message) => void this.progress.push(`${id} ${percent} ${message ?? ''}`));
        call.detach();
        this.outcomes.set(
          id,
          new Promise((settled) => call.answerNow({ content: [{ type: 'text', text: `receipt ${id}` }] }, { id, settled }))
        );
        return next();
      }
    }
  };
}

function appWith(receipts: Receipts, probe = new Probe()) {
  return FusionApp.create({
    tools: [DeskTools],
    providers: [{ provide: Probe, useValue: probe }],
    extensions: [receipts.extension]
  });
}

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

describe('the call-life point of the extension API, through a real SDK client', () => {
  it('is asked once per tool at startup; only the tools it applies to get its step', async () => {
    const receipts = new Receipts();
    const app = appWith(receipts);
    expect([...receipts.applied].sort()).toEqual(app.tools.map((t) => t.name).sort());
    expect(app.describeChain('count')).toContain('call-life');
    expect(app.describeChain('echo')).not.toContain('call-life');
    await app.close();
  });

  for (const era of ERAS) {
    it(`${era}: answers at once with the extension's result; the call runs on, its progress and its outcome go to the extension`, async () => {
      const receipts = new Receipts();
      const app = appWith(receipts);
      const { client, close } = await connectTestClient(app, {
        era,
        capabilities: { extensions: { 'com.example/receipts': {} } } as never
      });
      const reported: number[] = [];
      const answer = await client.callTool(
        { name: 'count', arguments: { steps: 3 } },
        { onprogress: (p: { progress: number }) => void reported.push(p.progress) }
      );
      expect(textOf(answer)).toBe('receipt r1');
      // The outcome as the boundary maps it: the tool's result.
      const outcome = await receipts.outcomes.get('r1')!;
      expect(outcome).toMatchObject({ value: { content: [{ type: 'text', text: 'counted 3' }] } });
      // Its progress went to the extension, not to the request.
      expect(receipts.progress).toEqual(['r1 33.33333333333333 step 1', 'r1 66.66666666666666 step 2', 'r1 100 step 3']);
      expect(reported).toEqual([]);
      expect(receipts.seenBy).toEqual([
        { tool: 'count', answered: false, optedIn: true, params: { name: 'count', arguments: { steps: 3 } } }
      ]);
      // A tool it does not apply to answers as usual.
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toContain('hi');
      await close();
      await app.close();
    });
  }

  it('a detached call outlives its request; the extension aborts it, and is told it was cancelled', async () => {
    const receipts = new Receipts();
    const probe = new Probe();
    const app = appWith(receipts, probe);
    const { client, close } = await connectTestClient(app);
    const controller = new AbortController();
    expect(textOf(await client.callTool({ name: 'hang', arguments: {} }, { signal: controller.signal }))).toBe('receipt r1');
    await probe.entered;
    controller.abort('the client went on');
    expect(app.activeCalls).toBe(1);
    receipts.calls.get('r1')!.abort('stopped by the extension');
    expect(await receipts.outcomes.get('r1')!).toEqual({ cancelled: expect.stringContaining('stopped by the extension') });
    expect(app.activeCalls).toBe(0);
    await close();
    await app.close();
  });

  it('checkFor: a check decided per tool at startup refuses a call before its middleware and queue slot run; other tools get no check', async () => {
    const receipts = new Receipts();
    const probe = new Probe();
    const entered: string[] = [];
    const checked: FusionExtension = {
      ...receipts.extension,
      steps: { outer: [async (ctx, next) => (entered.push(ctx.tool.name), next())] },
      callLife: {
        ...receipts.extension.callLife!,
        checkFor: (tool) =>
          tool.name === 'count'
            ? (request) => {
                if (request.clientSettings === undefined)
                  throw new MissingCapabilityError(tool.name, { extensions: { 'com.example/receipts': {} } });
              }
            : undefined
      }
    };
    const app = FusionApp.create({ tools: [DeskTools], providers: [{ provide: Probe, useValue: probe }], extensions: [checked] });
    expect(app.describeChain('count')).toContain('call-life-check');
    expect(app.describeChain('hang')).not.toContain('call-life-check');
    const plain = await connectTestClient(app);
    await expect(plain.client.callTool({ name: 'count', arguments: { steps: 1 } })).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { 'com.example/receipts': {} } } }
    });
    expect(entered).toEqual([]);
    expect(receipts.seenBy).toEqual([]);
    const optedIn = await connectTestClient(app, { capabilities: { extensions: { 'com.example/receipts': {} } } as never });
    expect(textOf(await optedIn.client.callTool({ name: 'count', arguments: { steps: 1 } }))).toBe('receipt r1');
    expect(entered).toEqual(['count']);
    await receipts.outcomes.get('r1');
    await plain.close();
    await optedIn.close();
    await app.close();
  });

  it('an invalid callLife is refused at startup, naming the extension', () => {
    expect(() =>
      FusionApp.create({
        tools: [DeskTools],
        providers: [{ provide: Probe, useValue: new Probe() }],
        extensions: [{ id: 'com.example/broken', callLife: { appliesTo: () => true } as never }]
      })
    ).toThrow('extension com.example/broken: callLife must have appliesTo(tool) and around(call, next) functions');
    expect(() =>
      FusionApp.create({
        tools: [DeskTools],
        providers: [{ provide: Probe, useValue: new Probe() }],
        extensions: [{ id: 'com.example/broken', callLife: { around: (_call: unknown, next: () => Promise<unknown>) => next() } as never }]
      })
    ).toThrow('extension com.example/broken: callLife must have appliesTo(tool) and around(call, next) functions');
  });
});
