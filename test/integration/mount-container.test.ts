import { Action, Ctx, FusionApp, ToolProvider, mount, type CallContext } from '../../src';
import { connectTestClient } from '../../src/testing';

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

/** A setting a mounted class injects: each mount provides its own. */
class Greeting {
  constructor(readonly word: string) {}
}

/** Something only the parent app provides. */
class Clock {
  readonly now = 'noon';
}

@ToolProvider()
class GreeterTools {
  constructor(
    private readonly greeting: Greeting,
    private readonly clock: Clock
  ) {}

  @Action('greet', { description: 'Greets with the mount’s own word, at the parent’s time' })
  greet(@Ctx() ctx: CallContext<{ tenant?: string }>) {
    return `${this.greeting.word} at ${this.clock.now} for ${ctx.tenant ?? 'nobody'}`;
  }
}

@ToolProvider()
class ParentTools {
  @Action('who', { description: 'The parent’s own tool' })
  who(@Ctx() ctx: CallContext<{ tenant?: string }>) {
    return `parent for ${ctx.tenant ?? 'nobody'}`;
  }
}

describe('a mounted app keeps its own container and contextFactory', () => {
  it('modern: two mounts provide the same class with different settings; each resolves its own, and the parent’s providers too', async () => {
    const english = FusionApp.create({
      tools: [GreeterTools],
      providers: [{ provide: Greeting, useValue: new Greeting('hello') }, Clock],
      contextFactory: () => ({ tenant: 'english-desk' })
    });
    const app = FusionApp.create({
      tools: [ParentTools],
      providers: [{ provide: Clock, useValue: new Clock() }],
      contextFactory: () => ({ tenant: 'parent' }),
      mounts: [
        mount('en', english),
        // The same tool class again, with another Greeting and no contextFactory of its own (the parent's applies).
        mount('fr', { tools: [GreeterTools], providers: [{ provide: Greeting, useValue: new Greeting('bonjour') }] })
      ]
    });
    const { client, close } = await connectTestClient(app);
    expect(text((await client.callTool({ name: 'en.greet', arguments: {} })) as never)).toBe('hello at noon for english-desk');
    expect(text((await client.callTool({ name: 'fr.greet', arguments: {} })) as never)).toBe('bonjour at noon for parent');
    expect(text((await client.callTool({ name: 'who', arguments: {} })) as never)).toBe('parent for parent');
    // What a mount provides stays in its container: the parent's has no Greeting.
    expect(app.container.isRegistered(Greeting, true)).toBe(false);
    await close();
    await app.close();
    await english.close();
  });

  it('refuses at startup a mounted class its mount’s container cannot build, naming the mount', () => {
    // No Greeting anywhere (it needs its word): the parent does not provide it and neither does this mount.
    expect(() =>
      FusionApp.create({
        tools: [],
        mounts: [
          mount('en', { tools: [GreeterTools], providers: [{ provide: Greeting, useValue: new Greeting('hi') }] }),
          mount('fr', { tools: [GreeterTools] })
        ]
      })
    ).toThrow(/mount fr: .*GreeterTools/s);
  });
});
