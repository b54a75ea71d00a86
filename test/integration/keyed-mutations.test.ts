import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import {
  Action,
  Ctx,
  FusionApp,
  Input,
  Interactive,
  Mutation,
  ToolProvider,
  ask,
  readInput,
  requireInput,
  type CallContext,
  type MutationLock
} from '../../src';
import { FifoMutex } from '../../src/advanced';
import { connectTestClient, type TestClient } from '../../src/testing';

class Target {
  @IsInt() @Min(1) id!: number;
  @IsString() tag!: string;
  @IsOptional() @IsInt({ each: true }) also?: number[];
}

/** Opens and closes gates a test controls: `entered(tag)` resolves when a handler runs, `open(tag)` lets it finish. */
class Gates {
  readonly log: string[] = [];
  private readonly waiting = new Map<string, { entered: () => void; opened: Promise<void>; open: () => void; in: Promise<void> }>();

  private gate(tag: string) {
    let gate = this.waiting.get(tag);
    if (!gate) {
      let entered!: () => void;
      let open!: () => void;
      const inside = new Promise<void>((resolve) => (entered = resolve));
      const opened = new Promise<void>((resolve) => (open = resolve));
      gate = { entered, opened, open, in: inside };
      this.waiting.set(tag, gate);
    }
    return gate;
  }

  async pass(tag: string): Promise<void> {
    this.log.push(`start ${tag}`);
    const gate = this.gate(tag);
    gate.entered();
    await gate.opened;
    this.log.push(`end ${tag}`);
  }

  entered(tag: string): Promise<void> {
    return this.gate(tag).in;
  }

  open(tag: string): void {
    this.gate(tag).open();
  }
}

const gates = { current: new Gates() };

@ToolProvider()
class Invoices {
  @Mutation('invoice.touch', {
    description: 'Changes one invoice (and, with `also`, others)',
    serializeOn: (input: Target) => [`invoice:${input.id}`, ...(input.also ?? []).map((id) => `invoice:${id}`)]
  })
  async touch(@Input() input: Target, @Ctx() ctx: CallContext) {
    await gates.current.pass(input.tag);
    return { tag: input.tag, lock: ctx.lock };
  }

  @Mutation('invoice.rebuild', { description: 'Rebuilds everything (app-wide)' })
  async rebuild(@Input() input: Target) {
    await gates.current.pass(input.tag);
    return { tag: input.tag };
  }

  @Mutation('invoice.sequence', { description: 'One at a time, beside the keyed ones', serializeOn: 'tool' })
  async sequence(@Input() input: Target) {
    await gates.current.pass(input.tag);
    return { tag: input.tag };
  }

  @Mutation('invoice.broken', {
    description: 'Its key function throws',
    serializeOn: () => {
      throw new Error('secret detail');
    }
  })
  broken() {
    return 'never';
  }

  @Mutation('invoice.nokeys', { description: 'Its key function returns no key', serializeOn: () => [] })
  nokeys() {
    return 'never';
  }

  @Interactive()
  @Mutation('invoice.confirm', { description: 'Asks before changing', serializeOn: (input: Target) => `invoice:${input.id}` })
  async confirm(@Input() input: Target) {
    if (readInput<boolean>('ok') === undefined) return requireInput.elicit('Sure?', { ok: ask.boolean('Go ahead') });
    await gates.current.pass(input.tag);
    return `confirmed ${input.tag}`;
  }
}

const structured = (result: unknown) => (result as { structuredContent?: Record<string, unknown> }).structuredContent;
const text = (result: unknown) => ((result as { content: { text: string }[] }).content[0] ?? { text: '' }).text;

describe('keyed mutations (serializeOn)', () => {
  let app: FusionApp;
  let test: TestClient;
  beforeEach(async () => {
    gates.current = new Gates();
    app = FusionApp.create({ tools: [Invoices] });
    test = await connectTestClient(app);
  });
  afterEach(async () => {
    await test.close();
    await app.close();
  });
  const call = (name: string, args: Record<string, unknown>) => test.client.callTool({ name, arguments: args });

  it('takes the keys after validation: the chain is data', () => {
    expect(app.describeChain('invoice.touch')).toEqual([
      'error-boundary',
      'flush',
      'present',
      'queue',
      'context',
      'validate-input',
      'keyed-lock',
      'invoke-tool'
    ]);
    expect(app.describeChain('invoice.rebuild')).toEqual([
      'error-boundary',
      'flush',
      'present',
      'queue',
      'context',
      'mutation-lock',
      'validate-input',
      'invoke-tool'
    ]);
  });

  it('runs mutations of different invoices at once, and those of one invoice one after the other, in arrival order', async () => {
    const one = call('invoice.touch', { id: 1, tag: 'one' });
    const two = call('invoice.touch', { id: 2, tag: 'two' });
    await Promise.all([gates.current.entered('one'), gates.current.entered('two')]);
    const again = call('invoice.touch', { id: 1, tag: 'again' });
    const third = call('invoice.touch', { id: 1, tag: 'third' });
    gates.current.open('two');
    await two;
    expect(gates.current.log).toEqual(['start one', 'start two', 'end two']);
    gates.current.open('one');
    await gates.current.entered('again');
    gates.current.open('again');
    gates.current.open('third');
    await Promise.all([one, again, third]);
    expect(gates.current.log).toEqual([
      'start one',
      'start two',
      'end two',
      'end one',
      'start again',
      'end again',
      'start third',
      'end third'
    ]);
  });

  it('an app-wide mutation waits for the keyed ones in flight and runs alone; keyed ones that come after wait for it', async () => {
    const keyed = call('invoice.touch', { id: 1, tag: 'keyed' });
    await gates.current.entered('keyed');
    const rebuild = call('invoice.rebuild', { id: 1, tag: 'rebuild' });
    // Arrives after the rebuild: waits for it although invoice 2 is free.
    const later = gates.current.entered('rebuild').then(() => call('invoice.touch', { id: 2, tag: 'later' }));
    gates.current.open('keyed');
    await keyed;
    await gates.current.entered('rebuild');
    gates.current.open('rebuild');
    gates.current.open('later');
    await Promise.all([rebuild, later]);
    expect(gates.current.log).toEqual(['start keyed', 'end keyed', 'start rebuild', 'end rebuild', 'start later', 'end later']);
  });

  it('ctx.lock gives the keys, sorted and without duplicates, each with its fencing token', async () => {
    gates.current.open('multi');
    const result = structured(await call('invoice.touch', { id: 3, tag: 'multi', also: [12, 3, 2] }));
    const lock = result!.lock as { fencingToken: number; keys: { key: string; fencingToken: number }[] };
    expect(lock.keys.map((k) => k.key)).toEqual(['invoice:12', 'invoice:2', 'invoice:3']);
    expect(lock.fencingToken).toBe(lock.keys[0].fencingToken);
    expect(new Set(lock.keys.map((k) => k.fencingToken)).size).toBe(3);
  });

  it("serializeOn: 'tool' serializes the tool's calls but not against other tools' keys", async () => {
    const first = call('invoice.sequence', { id: 1, tag: 's1' });
    await gates.current.entered('s1');
    const second = call('invoice.sequence', { id: 2, tag: 's2' });
    const keyed = call('invoice.touch', { id: 1, tag: 'k' });
    await gates.current.entered('k');
    gates.current.open('k');
    await keyed;
    gates.current.open('s1');
    gates.current.open('s2');
    await Promise.all([first, second]);
    expect(gates.current.log).toEqual(['start s1', 'start k', 'end k', 'end s1', 'start s2', 'end s2']);
  });

  it('a key function that throws, or gives no key, is a clean error; nothing runs and nothing stays held', async () => {
    const thrown = await call('invoice.broken', {});
    expect(thrown.isError).toBe(true);
    expect(text(thrown)).toBe(
      'Tool invoice.broken: the keys it serializes on could not be computed (its key function threw); nothing was run.'
    );
    expect(text(thrown)).not.toContain('secret');
    const none = await call('invoice.nokeys', {});
    expect(text(none)).toContain('its key function returned an empty list, not a key or a list of keys');
    gates.current.open('after');
    expect(structured(await call('invoice.rebuild', { id: 1, tag: 'after' }))).toEqual({ tag: 'after' });
  });

  it('invalid input is refused before any key is computed or held', async () => {
    const result = await call('invoice.touch', { id: 0, tag: 'bad' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Invalid arguments for tool invoice.touch');
  });

  it('holds no key while the user is asked: another mutation of the same invoice runs before the answer', async () => {
    const asking = await connectTestClient(app, {
      onInput: async () => {
        // The human takes their time: meanwhile a mutation of the same invoice runs to its end.
        gates.current.open('meanwhile');
        const meanwhile = await call('invoice.touch', { id: 5, tag: 'meanwhile' });
        expect(structured(meanwhile)).toMatchObject({ tag: 'meanwhile' });
        return { action: 'accept', content: { ok: true } };
      }
    });
    gates.current.open('asked');
    const result = await asking.client.callTool({ name: 'invoice.confirm', arguments: { id: 5, tag: 'asked' } });
    expect(text(result)).toBe('confirmed asked');
    expect(gates.current.log).toEqual(['start meanwhile', 'end meanwhile', 'start asked', 'end asked']);
    await asking.close();
  });

  it('refuses serializeOn on an action at startup, and a value that is not a scope', () => {
    class Wrong {
      @Action('wrong.read', { description: 'Reads', serializeOn: 'tool' } as never)
      read() {
        return 1;
      }
      @Mutation('wrong.write', { description: 'Writes', serializeOn: 'everything' as never })
      write() {
        return 1;
      }
    }
    ToolProvider()(Wrong);
    expect(() => FusionApp.create({ tools: [Wrong] })).toThrow(
      /serializeOn is an option of @Mutation only[\s\S]*serializeOn must be 'app', 'tool' or a function/
    );
  });

  it('a lock of your own without the keyed methods serves keyed mutations app-wide', async () => {
    const inner = new FifoMutex();
    const appWideOnly: MutationLock = {
      acquire: (signal) => inner.acquire(signal),
      get locked() {
        return inner.locked;
      }
    };
    const own = FusionApp.create({ tools: [Invoices], mutationLock: appWideOnly });
    try {
      const one = own.callTool('invoice.touch', { id: 1, tag: 'one' });
      await gates.current.entered('one');
      // Another invoice, but the lock knows no keys: it waits.
      const two = own.callTool('invoice.touch', { id: 2, tag: 'two' });
      gates.current.open('two');
      gates.current.open('one');
      await Promise.all([one, two]);
      expect(gates.current.log).toEqual(['start one', 'end one', 'start two', 'end two']);
    } finally {
      await own.close();
    }
  });
});
