import { IsString, Length } from 'class-validator';
import { inject, injectable } from 'tsyringe';
import {
  Action,
  ConfigurationError,
  FusionApp,
  Input,
  Interactive,
  Mutation,
  Prompt,
  Resource,
  ResourceTemplate,
  Signal,
  ToolProvider,
  ask,
  readInput,
  requireInput,
  type MiddlewareFn,
  type Presenter
} from '../../../src';
import type { ProviderSpec } from '../../../src/advanced';
import { connectTestClient } from '../../../src/testing';

class Query {
  @IsString() @Length(1, 20) q!: string;
}

class ItemVars {
  @IsString() id!: string;
}

/** A service only the subclasses' container provides. */
@injectable()
class Greeter {
  greet(name: string): string {
    return `Hello, ${name}`;
  }
}

const GREETING = Symbol('greeting');

function startupError(tools: Array<new (...args: never[]) => unknown>, providers: ProviderSpec[] = []): string {
  try {
    FusionApp.create({ tools, providers });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error('expected a startup error');
}

function text(result: { content: unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

/**
 * A base class that is never given to an app: no @ToolProvider() of its own, only members.
 * Its constructor injects a service, so it is @injectable() (its parameter types are recorded).
 */
@injectable()
class BaseTools {
  protected readonly label: string = 'Base';

  constructor(protected readonly greeter: Greeter) {}

  @Action('who', { description: 'Says which class serves the call' })
  who(@Input() query: Query) {
    return `${this.label}: ${this.greeter.greet(query.q)}`;
  }

  @Action('overridden', { description: 'The base description' })
  overridden() {
    return 'base';
  }

  @Mutation('undecorated.override', { description: 'Overridden without decorators' })
  plain(@Input() query: Query) {
    return `base ${query.q}`;
  }

  @Action('signal.kind', { description: 'Reads its signal' })
  async *generator(@Signal() signal: AbortSignal) {
    yield 'a plain value';
    return `${this.label} aborted=${signal.aborted}`;
  }
}

@ToolProvider()
class Desk extends BaseTools {
  protected readonly label = 'Desk';

  @Action('overridden', { description: 'The subclass description' })
  override overridden() {
    return 'sub';
  }

  override plain(query: Query) {
    return `sub ${query.q.toUpperCase()}`;
  }

  @Action('desk.own', { description: 'A tool of the subclass' })
  own() {
    return this instanceof Desk ? 'a Desk' : 'not a Desk';
  }
}

describe('decorators on a base class', () => {
  it('an inherited tool runs on the subclass instance, with its injected services', async () => {
    const app = FusionApp.create({ tools: [Desk], providers: [Greeter] });
    expect(app.listTools().map((t) => t.name)).toEqual(['who', 'overridden', 'undecorated.override', 'signal.kind', 'desk.own']);
    expect(text(await app.callTool('who', { q: 'Ada' }))).toBe('Desk: Hello, Ada');
    // The inherited input class is listed and enforced.
    expect(app.listTools()[0].inputSchema).toMatchObject({ properties: { q: { type: 'string', minLength: 1, maxLength: 20 } } });
    const invalid = await app.callTool('who', { q: '' });
    expect(invalid.isError).toBe(true);
    expect(text(await app.callTool('desk.own', {}))).toBe('a Desk');
    expect(text(await app.callTool('signal.kind', {}))).toBe('Desk aborted=false');
    expect(app.tools.find((t) => t.name === 'signal.kind')).toMatchObject({ className: 'Desk', isGenerator: true, params: ['signal'] });
    await app.close();
  });

  it('an override with its own decorator wins: its options are listed and its body runs', async () => {
    const app = FusionApp.create({ tools: [Desk], providers: [Greeter] });
    expect(app.listTools().find((t) => t.name === 'overridden')!.description).toBe('The subclass description');
    expect(text(await app.callTool('overridden', {}))).toBe('sub');
    await app.close();
  });

  it("an override without decorators keeps the base's decorators (kind, parameters), and the override runs", async () => {
    const app = FusionApp.create({ tools: [Desk], providers: [Greeter] });
    const tool = app.listTools().find((t) => t.name === 'undecorated.override')!;
    expect(tool.annotations).toMatchObject({ destructiveHint: true });
    expect(tool.inputSchema).toMatchObject({ properties: { q: { type: 'string' } }, required: ['q'] });
    expect(text(await app.callTool('undecorated.override', { q: 'ada' }))).toBe('sub ADA');
    await app.close();
  });

  it('a redecorated override replaces the base decorators as a whole: @Interactive() is not kept unless repeated', async () => {
    class AskingBase {
      @Interactive()
      @Action('ask', { description: 'Asks a name' })
      ask() {
        const name = readInput<string>('name');
        return name === undefined ? requireInput.elicit('Name?', { name: ask.string('Your name') }) : `base ${name}`;
      }
    }
    @ToolProvider()
    class Repeats extends AskingBase {
      @Interactive()
      @Action('ask', { description: 'Asks a name, louder' })
      override ask() {
        const name = readInput<string>('name');
        return name === undefined ? requireInput.elicit('Name?', { name: ask.string('Your name') }) : `sub ${name.toUpperCase()}`;
      }
    }
    @ToolProvider()
    class Drops extends AskingBase {
      @Action('ask', { description: 'Not marked interactive' })
      override ask() {
        return requireInput.elicit('Name?', { name: ask.string('Your name') });
      }
    }
    const app = FusionApp.create({ tools: [Repeats] });
    expect(text(await app.callTool('ask', {}, { answers: { name: 'ada' } }))).toBe('sub ADA');
    await app.close();
    const dropped = FusionApp.create({ tools: [Drops] });
    const result = await dropped.callTool('ask', {}, { answers: { name: 'ada' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/Drops.ask\) returned a request for input but is not marked @Interactive\(\)/);
    await dropped.close();
  });

  it('an inherited @Interactive() tool asks and resumes on the subclass', async () => {
    class ConfirmBase {
      @Interactive({ singleUseState: true })
      @Mutation('confirm', { description: 'Confirms, then records' })
      confirm(@Input() query: Query) {
        const yes = readInput<boolean>('yes');
        if (yes === undefined) return requireInput.elicit(`Record ${query.q}?`, { yes: ask.boolean('Record it') });
        return yes ? `${this.constructor.name} recorded ${query.q}` : 'not recorded';
      }
    }
    @ToolProvider()
    class Confirmer extends ConfirmBase {}
    const app = FusionApp.create({ tools: [Confirmer] });
    expect(app.tools[0]).toMatchObject({ interactive: true, singleUseState: true, className: 'Confirmer' });
    expect(text(await app.callTool('confirm', { q: 'it' }, { answers: { yes: true } }))).toBe('Confirmer recorded it');
    const { client, close } = await connectTestClient(app, { era: 'modern', answers: { yes: true } });
    const result = await client.callTool({ name: 'confirm', arguments: { q: 'it' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Confirmer recorded it' }]);
    await close();
    await app.close();
  });

  it('inherited resources and prompts are served to a real client', async () => {
    // An abstract base may carry @ToolProvider() itself (it records its constructor's parameter types).
    @ToolProvider()
    abstract class Catalog {
      constructor(@inject(GREETING) protected readonly greeting: string) {}
      protected abstract readonly scheme: string;

      @Resource('shop://about', { name: 'about', mimeType: 'text/plain' })
      about() {
        return `${this.greeting} from ${this.constructor.name}`;
      }

      @ResourceTemplate('shop://items/{id}', { name: 'item', mimeType: 'application/json', list: 'items', complete: { id: 'ids' } })
      item(@Input() vars: ItemVars) {
        return { id: vars.id, by: this.constructor.name };
      }

      items() {
        return [{ uri: 'shop://items/1', name: 'Item 1' }];
      }

      ids(value: string) {
        return ['1', '2', '10'].filter((id) => id.startsWith(value));
      }

      @Prompt('shop.pitch', { description: 'Pitches an item' })
      pitch(@Input() vars: ItemVars) {
        return `${this.greeting}: pitch item ${vars.id} (${this.scheme})`;
      }
    }
    @ToolProvider()
    class Shop extends Catalog {
      protected readonly scheme = 'shop';
      // Its own completer list wins over the base's: methods resolve on the instance.
      override ids(value: string) {
        return ['7', '70'].filter((id) => id.startsWith(value));
      }
    }
    const app = FusionApp.create({ tools: [Shop], providers: [{ provide: GREETING, useValue: 'Hi' }] });
    for (const era of ['modern', 'legacy-memory'] as const) {
      const { client, close } = await connectTestClient(app, { era });
      expect((await client.readResource({ uri: 'shop://about' })).contents).toEqual([
        { uri: 'shop://about', mimeType: 'text/plain', text: 'Hi from Shop' }
      ]);
      expect((await client.readResource({ uri: 'shop://items/3' })).contents).toEqual([
        { uri: 'shop://items/3', mimeType: 'application/json', text: '{"id":"3","by":"Shop"}' }
      ]);
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['shop://about', 'shop://items/1']);
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['shop.pitch']);
      expect((await client.getPrompt({ name: 'shop.pitch', arguments: { id: '9' } })).messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Hi: pitch item 9 (shop)' } }
      ]);
      const completion = await client.complete({
        ref: { type: 'ref/resource', uri: 'shop://items/{id}' },
        argument: { name: 'id', value: '7' }
      });
      expect(completion.completion.values).toEqual(['7', '70']);
      await close();
    }
    await app.close();
  });

  it('class middleware of the base runs first, then the subclass, then the method; the nearest presenter wins', async () => {
    const seen: string[] = [];
    const mark =
      (name: string): MiddlewareFn =>
      async (_ctx, next) => {
        seen.push(name);
        return next();
      };
    const noted = (note: string): Presenter => ({ present: (value, ctx) => ctx.shape(value, [note]) });
    @ToolProvider({ middleware: [mark('base')], presenter: noted('base presenter') })
    class Layered {
      @Action('layered', { description: 'Layered', middleware: [mark('method')] })
      layered() {
        return 'ok';
      }
    }
    @ToolProvider({ middleware: [mark('sub')] })
    class KeepsPresenter extends Layered {}
    @ToolProvider({ presenter: noted('sub presenter') })
    class OwnPresenter extends Layered {}

    const keeps = FusionApp.create({ tools: [KeepsPresenter], middleware: [mark('app')] });
    const first = await keeps.callTool('layered', {});
    expect(seen).toEqual(['app', 'base', 'sub', 'method']);
    expect(first.content).toEqual([
      { type: 'text', text: 'ok' },
      { type: 'text', text: 'base presenter' }
    ]);
    await keeps.close();

    seen.length = 0;
    const own = FusionApp.create({ tools: [OwnPresenter] });
    const second = await own.callTool('layered', {});
    expect(seen).toEqual(['base', 'method']);
    expect(second.content).toEqual([
      { type: 'text', text: 'ok' },
      { type: 'text', text: 'sub presenter' }
    ]);
    await own.close();
  });

  it('two subclasses of one base in one app: a duplicate-name startup error naming both', () => {
    class Shared {
      @Action('shared.read', { description: 'Reads' })
      read() {
        return 'x';
      }
      @Prompt('shared.prompt', { description: 'A prompt' })
      prompt() {
        return 'p';
      }
    }
    @ToolProvider()
    class Left extends Shared {}
    @ToolProvider()
    class Right extends Shared {}
    const message = startupError([Left, Right]);
    expect(message).toContain(
      'Duplicate tool name "shared.read" on Left.read (inherited from Shared) and Right.read (inherited from Shared): tool names must be unique within an app.'
    );
    expect(message).toContain(
      'Duplicate prompt "shared.prompt" on Left.prompt (inherited from Shared) and Right.prompt (inherited from Shared)'
    );
  });

  it('a base class never given to the app is fine; given alongside its subclass, its tools are duplicates', async () => {
    @ToolProvider()
    class Standalone {
      @Action('standalone', { description: 'A tool' })
      standalone() {
        return 'from ' + this.constructor.name;
      }
    }
    @ToolProvider()
    class Extended extends Standalone {}
    const app = FusionApp.create({ tools: [Extended] });
    expect(text(await app.callTool('standalone', {}))).toBe('from Extended');
    await app.close();
    expect(startupError([Standalone, Extended])).toContain(
      'Duplicate tool name "standalone" on Standalone.standalone and Extended.standalone (inherited from Standalone)'
    );
  });

  it('a subclass needs its own @ToolProvider(), even when its base has one', () => {
    @ToolProvider()
    class Decorated {
      @Action('decorated', { description: 'A tool' })
      decorated() {}
    }
    class Undecorated extends Decorated {}
    expect(startupError([Undecorated])).toContain(
      'Undecorated is not a tool provider: decorate it with @ToolProvider() (its base class Decorated has one, but each class given to the app needs its own).'
    );
  });

  it("a base's misuse is reported for the subclass, naming where it was inherited from", () => {
    class Broken {
      @Action('broken', {} as never)
      broken() {}
      @Action('untyped', { description: 'Untyped' })
      untyped(_q: string) {}
    }
    @ToolProvider()
    class UsesBroken extends Broken {}
    const message = startupError([UsesBroken]);
    expect(message).toContain("UsesBroken.broken (inherited from Broken) has no description: pass { description: '…' }");
    expect(message).toContain('UsesBroken.untyped (inherited from Broken): parameter 1 has no decorator');
  });

  it('an override that keeps only @Interactive() or parameter decorators is refused with the fix', () => {
    class Base {
      @Action('partial', { description: 'A tool' })
      partial(@Input() query: Query) {
        return query.q;
      }
    }
    @ToolProvider()
    class Partial extends Base {
      override partial(@Input() query: Query) {
        return query.q.trim();
      }
    }
    expect(startupError([Partial])).toContain(
      'Partial.partial overrides @Action Base.partial with only @Interactive() or parameter decorators: decorators on an override replace all of the base method'
    );
  });

  it('a subclass built with an undecorated base constructor that takes parameters is a startup error', () => {
    abstract class NeedsGreeter {
      constructor(protected readonly greeter: Greeter) {}
      @Action('needs', { description: 'Needs a greeter' })
      needs() {
        return this.greeter.greet('x');
      }
    }
    @ToolProvider()
    class Inherits extends NeedsGreeter {}
    expect(startupError([Inherits], [Greeter])).toContain(
      "Inherits is built with the constructor of NeedsGreeter, which takes 1 parameter(s) whose types were not recorded: decorate NeedsGreeter with @injectable() from 'tsyringe' (or @ToolProvider())"
    );
  });
});
