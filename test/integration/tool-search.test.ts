import { IsInt, IsString, Min } from 'class-validator';
import {
  Action,
  FusionApp,
  Input,
  Interactive,
  Mutation,
  ToolProvider,
  ask,
  progress,
  readInput,
  requireInput,
  type MutationLock
} from '../../src';
import { FifoMutex } from '../../src/advanced';
import { proxy } from '../../src';
import { GatewayUpstreamTools } from '../fixtures/gateway-upstream-tools';
import { connectTestClient } from '../../src/testing';
import { recordWire } from '../helpers/wire-log';

class Entry {
  @IsString() tag!: string;
}

class Refund {
  @IsInt() @Min(1) invoice!: number;
}

/** Gates a test opens: `entered(tag)` resolves when a handler runs, `open(tag)` lets it finish. */
class Gates {
  readonly log: string[] = [];
  private readonly gates = new Map<string, { entered: () => void; in: Promise<void>; open: () => void; opened: Promise<void> }>();

  private gate(tag: string) {
    let gate = this.gates.get(tag);
    if (!gate) {
      let entered!: () => void;
      let open!: () => void;
      const inside = new Promise<void>((resolve) => (entered = resolve));
      const opened = new Promise<void>((resolve) => (open = resolve));
      this.gates.set(tag, (gate = { entered, in: inside, open, opened }));
    }
    return gate;
  }

  async pass(tag: string): Promise<void> {
    this.log.push(`start ${tag}`);
    this.gate(tag).entered();
    await this.gate(tag).opened;
    this.log.push(`end ${tag}`);
  }

  entered = (tag: string) => this.gate(tag).in;
  open = (tag: string) => this.gate(tag).open();
}

const gates = { current: new Gates() };

@ToolProvider()
class LedgerTools {
  @Mutation('ledger.post', { description: 'Posts an entry to the general ledger (one at a time, app-wide)' })
  async post(@Input() input: Entry) {
    await gates.current.pass(input.tag);
    return `posted ${input.tag}`;
  }

  @Interactive()
  @Mutation('billing.refund', { description: 'Refunds an invoice after the user confirms it' })
  refund(@Input() input: Refund) {
    if (readInput<boolean>('confirm') === undefined)
      return requireInput.elicit(`Refund invoice ${input.invoice}?`, { confirm: ask.boolean('Refund it') });
    return readInput<boolean>('confirm') ? `refunded ${input.invoice}` : 'kept';
  }

  @Action('reports.export', { description: 'Exports the monthly sales report as CSV, reporting progress' })
  async *export() {
    for (let step = 1; step <= 4; step++) yield progress(step * 25, `part ${step}`);
    return 'report.csv';
  }

  @Action('weather.forecast', { description: 'Gives the weather forecast for a city' })
  forecast() {
    return 'sunny';
  }
}

@ToolProvider()
class LateTools {
  @Action('translate.text', { description: 'Translates a text into another language' })
  translate() {
    return 'hola';
  }
}

/** A FIFO mutex that says when a call asks for the lock (how the test knows a second mutation waits, without sleeping). */
class WatchedLock implements MutationLock {
  private readonly inner = new FifoMutex();
  private waiters: (() => void)[] = [];
  asked = 0;

  acquire(signal: AbortSignal) {
    this.asked++;
    for (const resolve of this.waiters.splice(0)) resolve();
    return this.inner.acquire(signal);
  }

  get locked() {
    return this.inner.locked;
  }

  /** Resolves once the lock has been asked for `count` times in all. */
  askedFor(count: number): Promise<void> {
    if (this.asked >= count) return Promise.resolve();
    return new Promise<void>((resolve) => this.waiters.push(resolve)).then(() => this.askedFor(count));
  }
}

type Result = { content: { type: string; text: string }[]; isError?: boolean; structuredContent?: { tools?: { name: string }[] } };
const text = (result: unknown) => (result as Result).content[0]?.text ?? '';
const found = (result: unknown) => ((result as Result).structuredContent?.tools ?? []).map((tool) => tool.name);

describe('tool search (toolSearch)', () => {
  const lock = new WatchedLock();
  const app = FusionApp.create({ tools: [LedgerTools], toolSearch: true, mutationLock: lock });
  afterAll(() => app.close());
  beforeEach(() => (gates.current = new Gates()));

  for (const era of ['modern', 'legacy-http', 'legacy-memory'] as const) {
    describe(era, () => {
      it('lists only the search and call tools; a search finds tools by what they do, with their schemas and annotations', async () => {
        const { client, close } = await connectTestClient(app, { era });
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(['search_tools', 'call_tool']);
        const result = await client.callTool({ name: 'search_tools', arguments: { query: 'give money back for an invoice', limit: 2 } });
        expect(found(result)[0]).toBe('billing.refund');
        const refund = (result as { structuredContent: { tools: Record<string, unknown>[] } }).structuredContent.tools[0];
        expect(refund.inputSchema).toMatchObject({ type: 'object', properties: { invoice: { type: 'integer' } } });
        expect(refund.annotations).toMatchObject({ destructiveHint: true });
        expect(JSON.parse(text(result)).tools[0].name).toBe('billing.refund');
        await close();
      });

      it('a mutation called through call_tool holds the mutation lock: a second one waits for the first', async () => {
        const { client, close } = await connectTestClient(app, { era });
        const asked = lock.asked;
        const first = client.callTool({ name: 'call_tool', arguments: { name: 'ledger.post', arguments: { tag: 'a' } } });
        await gates.current.entered('a');
        const second = client.callTool({ name: 'call_tool', arguments: { name: 'ledger.post', arguments: { tag: 'b' } } });
        await lock.askedFor(asked + 2);
        expect(gates.current.log).toEqual(['start a']);
        gates.current.open('a');
        expect(text(await first)).toBe('posted a');
        await gates.current.entered('b');
        gates.current.open('b');
        expect(text(await second)).toBe('posted b');
        expect(gates.current.log).toEqual(['start a', 'end a', 'start b', 'end b']);
        await close();
      });

      it('an interactive tool called through call_tool asks its question, and the answer reaches it', async () => {
        const questions: string[] = [];
        const { client, close } = await connectTestClient(app, {
          era,
          onInput: (request) => {
            questions.push(request.message ?? '');
            return { action: 'accept', content: { confirm: true } };
          }
        });
        const result = await client.callTool({ name: 'call_tool', arguments: { name: 'billing.refund', arguments: { invoice: 7 } } });
        expect(text(result)).toBe('refunded 7');
        expect(questions).toEqual(['Refund invoice 7?']);
        await close();
      });

      it('a generator tool called through call_tool reports its progress before the response', async () => {
        const { client, close } = await connectTestClient(app, { era });
        const log = recordWire(client);
        const seen: number[] = [];
        const result = await client.callTool(
          { name: 'call_tool', arguments: { name: 'reports.export' } },
          { onprogress: (p) => seen.push(p.progress) }
        );
        expect(text(result)).toBe('report.csv');
        const notes = log.filter((m) => m.method === 'notifications/progress');
        expect(notes.map((m) => m.params!.message)).toEqual(['part 1', 'part 2', 'part 3', 'part 4']);
        expect(log.map((m) => m.method).lastIndexOf('notifications/progress')).toBeLessThan(log.findIndex((m) => m.result !== undefined));
        expect(seen.slice(0, 3)).toEqual([25, 50, 75]);
        await close();
      });

      it('bad input gets a clear isError result, and the server goes on serving', async () => {
        const { client, close } = await connectTestClient(app, { era });
        const unknown = await client.callTool({ name: 'call_tool', arguments: { name: 'no.such.tool', arguments: {} } });
        expect(unknown.isError).toBe(true);
        expect(text(unknown)).toMatch(/No tool is named "no\.such\.tool"\. Find the tool with search_tools/);
        const badArgs = await client.callTool({
          name: 'call_tool',
          arguments: { name: 'billing.refund', arguments: { invoice: 'seven' } }
        });
        expect(badArgs.isError).toBe(true);
        expect(text(badArgs)).toMatch(/Invalid arguments for tool billing\.refund/);
        expect(text(badArgs)).toMatch(/invoice/);
        const notAnObject = await client.callTool({ name: 'call_tool', arguments: { name: 'weather.forecast', arguments: 'sunny?' } });
        expect(notAnObject.isError).toBe(true);
        expect(text(notAnObject)).toMatch(/arguments: must be an object/);
        const itself = await client.callTool({ name: 'call_tool', arguments: { name: 'call_tool' } });
        expect(text(itself)).toMatch(/called directly/);
        const noQuery = await client.callTool({ name: 'search_tools', arguments: { query: '  ', limit: 500 } });
        expect(noQuery.isError).toBe(true);
        expect(text(noQuery)).toMatch(/query: must be a non-empty string/);
        expect(text(noQuery)).toMatch(/limit: must be a whole number from 1 to 20/);
        const long = await client.callTool({ name: 'search_tools', arguments: { query: 'refund '.repeat(200) } });
        expect(text(long)).toMatch(/query: must be at most 1000 characters/);
        const nothing = await client.callTool({ name: 'search_tools', arguments: { query: 'zzqx' } });
        expect(nothing.isError).toBeFalsy();
        expect(found(nothing)).toEqual([]);
        // Still serving, and every tool is still callable by its own name.
        expect(text(await client.callTool({ name: 'weather.forecast', arguments: {} }))).toBe('sunny');
        await close();
      });
    });
  }

  it('tools added and removed at run time are found, and called, from the next search on', async () => {
    const { client, close } = await connectTestClient(app);
    expect(found(await client.callTool({ name: 'search_tools', arguments: { query: 'translate a text' } }))).not.toContain(
      'translate.text'
    );
    app.addTools(LateTools);
    expect(found(await client.callTool({ name: 'search_tools', arguments: { query: 'translate a text' } }))[0]).toBe('translate.text');
    expect(text(await client.callTool({ name: 'call_tool', arguments: { name: 'translate.text' } }))).toBe('hola');
    app.removeTools(LateTools);
    expect(found(await client.callTool({ name: 'search_tools', arguments: { query: 'translate a text' } }))).not.toContain(
      'translate.text'
    );
    expect(text(await client.callTool({ name: 'call_tool', arguments: { name: 'translate.text' } }))).toMatch(/No tool is named/);
    await close();
  });
});

describe('tool search through app.callTool (the test entry point)', () => {
  it('answers the search tool, and runs the named tool through the call tool, its questions answered', async () => {
    const app = FusionApp.create({ tools: [LedgerTools], toolSearch: true });
    expect(found(await app.callTool('search_tools', { query: 'weather forecast for a city', limit: 1 }))).toEqual(['weather.forecast']);
    const refunded = await app.callTool('call_tool', { name: 'billing.refund', arguments: { invoice: 3 } }, { answers: { confirm: true } });
    expect(text(refunded)).toBe('refunded 3');
    expect(text(await app.callTool('call_tool', { name: 'nope' }))).toMatch(/No tool is named "nope"/);
    await expect(app.callTool('nope')).rejects.toThrow('Unknown tool: nope');
    await app.close();
  });
});

describe('tool search options', () => {
  it('pins tools beside the two, under names of your own', async () => {
    const app = FusionApp.create({
      tools: [LedgerTools],
      toolSearch: { searchToolName: 'find', callToolName: 'run', pinned: ['weather.forecast', 'gone'] }
    });
    const { client, close } = await connectTestClient(app);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['weather.forecast', 'find', 'run']);
    expect(text(await client.callTool({ name: 'run', arguments: { name: 'weather.forecast' } }))).toBe('sunny');
    await close();
    await app.close();
  });

  it('refuses a tool that has the name of the search or call tool, and bad option values, naming them', () => {
    @ToolProvider()
    class Clash {
      @Action('search_tools', { description: 'Mine' })
      mine() {
        return 'x';
      }
    }
    expect(() => FusionApp.create({ tools: [Clash], toolSearch: true })).toThrow(/Clash\.mine has that name too/);
    expect(() => FusionApp.create({ tools: [], toolSearch: { defaultLimit: 30 } })).toThrow(
      /defaultLimit \(30\) is above toolSearch\.maxLimit \(20\)/
    );
    expect(() => FusionApp.create({ tools: [], toolSearch: { callToolName: 'search_tools' } })).toThrow(/both named search_tools/);
  });
});

describe('tool search in front of a gateway (an app whose tools are proxied)', () => {
  it('finds an upstream tool by what it does and calls it through call_tool, with its progress', async () => {
    const upstream = FusionApp.create({ name: 'upstream', version: '1.0.0', tools: [GatewayUpstreamTools], logger: () => undefined });
    const { url } = await upstream.listen({ transport: 'http', port: 0, handleSignals: false });
    const gateway = await proxy(url!, { namespace: 'up' });
    const front = FusionApp.create({ tools: [], gateways: [gateway], toolSearch: true });
    try {
      const { client, close } = await connectTestClient(front);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['search_tools', 'call_tool']);
      const result = await client.callTool({ name: 'search_tools', arguments: { query: 'count to three', limit: 1 } });
      expect(found(result)).toEqual(['up.count']);
      const seen: number[] = [];
      const counted = await client.callTool(
        { name: 'call_tool', arguments: { name: 'up.count' } },
        { onprogress: (p) => seen.push(p.progress) }
      );
      expect(counted.isError).toBeFalsy();
      expect(seen.length).toBeGreaterThan(0);
      await close();
    } finally {
      await front.close();
      await upstream.close();
    }
  });
});

describe('tool search and reloads', () => {
  it('a reload that turns toolSearch on tells connected clients the tool list changed, and they list the search front', async () => {
    const app = FusionApp.create({ tools: [LedgerTools] });
    const { client, close } = await connectTestClient(app, { era: 'legacy-memory' });
    expect((await client.listTools()).tools).toHaveLength(4);
    const changed = new Promise<void>((resolve) => client.setNotificationHandler('notifications/tools/list_changed', () => resolve()));
    const changes = await app.adopt(FusionApp.create({ tools: [LedgerTools], toolSearch: true }));
    expect(changes.tools).toBe(true);
    await changed;
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['search_tools', 'call_tool']);
    expect(text(await client.callTool({ name: 'call_tool', arguments: { name: 'weather.forecast' } }))).toBe('sunny');
    await close();
    await app.close();
  });
});
