import type { StandardSchemaV1 } from '@modelcontextprotocol/client';
import { FusionApp } from '../../src';
import type { CallOutcome, ExtensionHost, FusionExtension } from '../../src/advanced';
import { connectTestClient } from '../../src/testing';
import { InteractiveTools, Ledger } from '../fixtures/interactive-tools';

/**
 * A user-written extension that runs later rounds of a detached call through the public API
 * (`ExtensionHost.runLaterRound`): it "parks" calls of `refund` (answers them at once with a
 * ticket; the question the tool asks is the parked run's outcome) and resumes a parked call
 * with the answers a method of its own receives. Through a real SDK client, on 2026-07-28.
 */
const PARKED = 'com.example/parked';
const ANY: StandardSchemaV1 = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } };

interface Parked {
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly capabilities: Record<string, unknown> | undefined;
  readonly abort: AbortController;
  /** The run's outcomes, in order, each as soon as it is told. */
  readonly outcomes: CallOutcome[];
  changed: Promise<void>;
  tell: () => void;
}

/** The parking extension: its calls by ticket, and whether each round saw its call as answered. */
class Parking {
  readonly parked = new Map<string, Parked>();
  readonly answeredSeen: boolean[] = [];
  private host: ExtensionHost | undefined;
  private next = 0;

  readonly extension: FusionExtension = {
    id: PARKED,
    start: (host) => {
      this.host = host;
    },
    callLife: {
      appliesTo: (tool) => tool.name === 'refund',
      around: (call, next) => {
        this.answeredSeen.push(call.answered);
        if (call.answered) return next();
        const id = `p${++this.next}`;
        const entry = this.park(id, call.arguments, call.request.clientCapabilities as Record<string, unknown> | undefined);
        call.detach();
        call.answerNow({ content: [{ type: 'text', text: `ticket ${id}` }] }, { id, settled: (outcome) => this.told(entry, outcome) });
        return next();
      }
    },
    methods: {
      // Resumes a parked call with the answers to its last question, as a later round run by the host.
      'parked/resume': (request) => {
        const id = String(request.params.id);
        const entry = this.parked.get(id)!;
        const last = entry.outcomes.at(-1) as { value: Record<string, unknown> };
        this.host!.runLaterRound({
          tool: String(request.params.tool ?? 'refund'),
          arguments: entry.arguments,
          requestState: last.value.requestState as string,
          inputResponses: request.params.answers as Record<string, unknown>,
          clientCapabilities: entry.capabilities,
          run: { id, settled: (outcome) => this.told(entry, outcome) },
          signal: entry.abort.signal,
          resumedBy: request
        });
        return {};
      }
    }
  };

  private park(id: string, args: Readonly<Record<string, unknown>>, capabilities: Record<string, unknown> | undefined): Parked {
    const entry = { arguments: args, capabilities, abort: new AbortController(), outcomes: [] } as unknown as Parked;
    entry.changed = new Promise<void>((resolve) => (entry.tell = resolve));
    this.parked.set(id, entry);
    return entry;
  }

  private told(entry: Parked, outcome: CallOutcome): void {
    entry.outcomes.push(outcome);
    const tell = entry.tell;
    entry.changed = new Promise<void>((resolve) => (entry.tell = resolve));
    tell();
  }

  /** The outcome number `n` (from 1) of a parked call, once told. */
  async outcome(id: string, n: number): Promise<CallOutcome> {
    const entry = this.parked.get(id)!;
    while (entry.outcomes.length < n) await entry.changed;
    return entry.outcomes[n - 1]!;
  }
}

async function parkedApp() {
  const parking = new Parking();
  const ledger = new Ledger();
  const app = FusionApp.create({
    tools: [InteractiveTools],
    providers: [{ provide: Ledger, useValue: ledger }],
    extensions: [parking.extension]
  });
  const { client, close } = await connectTestClient(app, {
    era: 'modern',
    capabilities: { elicitation: { form: {} }, extensions: { [PARKED]: {} } } as never
  });
  return { parking, ledger, app, client, close: () => close().then(() => app.close()) };
}

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

describe('ExtensionHost.runLaterRound: a user-written extension runs a later round of a detached call', () => {
  it('the first round parks with a question; the resumed round answers it, and its outcome goes to the run', async () => {
    const { parking, ledger, client, close } = await parkedApp();
    expect(textOf(await client.callTool({ name: 'refund', arguments: { amount: 5 } }))).toBe('ticket p1');
    // The first round's outcome: the tool's question, as the boundary maps it (sealed, resumable).
    const first = (await parking.outcome('p1', 1)) as { value: Record<string, unknown> };
    expect(first.value).toMatchObject({ resultType: 'input_required', requestState: expect.any(String) });
    const [key] = Object.keys(first.value.inputRequests as object);
    expect(ledger.refunds).toEqual([]);

    const answers = { [key!]: { action: 'accept', content: { confirm: true } } };
    await client.request({ method: 'parked/resume', params: { id: 'p1', answers } }, ANY);
    // The later round: the same call, seen as answered by the call-life point; its result settles the run.
    expect(await parking.outcome('p1', 2)).toEqual({
      value: { content: [{ type: 'text', text: 'Refunded $5' }], resultType: 'complete' }
    });
    expect(parking.answeredSeen).toEqual([false, true]);
    expect(ledger.refunds).toEqual([5]);
    await close();
  });

  it('a round of a tool that is not there settles the run with -32602 naming it', async () => {
    const { parking, client, close } = await parkedApp();
    await client.callTool({ name: 'refund', arguments: { amount: 7 } });
    await parking.outcome('p1', 1);
    await client.request({ method: 'parked/resume', params: { id: 'p1', tool: 'no.such.tool', answers: {} } }, ANY);
    expect(await parking.outcome('p1', 2)).toEqual({ error: { code: -32602, message: 'Unknown tool: no.such.tool' } });
    await close();
  });

  it('a round whose signal is aborted is settled cancelled; nothing of it runs', async () => {
    const { parking, ledger, client, close } = await parkedApp();
    await client.callTool({ name: 'refund', arguments: { amount: 9 } });
    const first = (await parking.outcome('p1', 1)) as { value: Record<string, unknown> };
    const [key] = Object.keys(first.value.inputRequests as object);
    parking.parked.get('p1')!.abort.abort('stopped by the extension');
    await client.request(
      { method: 'parked/resume', params: { id: 'p1', answers: { [key!]: { action: 'accept', content: { confirm: true } } } } },
      ANY
    );
    expect(await parking.outcome('p1', 2)).toEqual({ cancelled: expect.any(String) });
    expect(ledger.refunds).toEqual([]);
    await close();
  });
});
