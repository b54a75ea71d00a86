import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Action, FusionApp, Mutation, Prompt, ToolProvider, type LockRelease, type MutationLock } from '../../src';
import { FifoMutex } from '../../src/advanced';

/** The app-wide mutation lock, telling the test when a caller has to wait for it. */
class ObservedLock implements MutationLock {
  private readonly inner = new FifoMutex();
  private onWait: (() => void) | undefined;

  /** Resolves when the next caller finds the lock held. */
  waited(): Promise<void> {
    return new Promise((resolve) => (this.onWait = resolve));
  }

  get locked(): boolean {
    return this.inner.locked;
  }

  acquire(signal: AbortSignal): Promise<LockRelease> {
    if (this.inner.locked) this.onWait?.();
    return this.inner.acquire(signal);
  }
}

/** What the test holds open: `entered` when the held mutation runs, `release` lets it return. */
class Gate {
  entered!: Promise<void>;
  release!: () => void;
  private enter!: () => void;
  private released!: Promise<void>;
  constructor() {
    this.entered = new Promise((resolve) => (this.enter = resolve));
    this.released = new Promise((resolve) => (this.release = resolve));
  }
  isReleased = false;
  async hold(): Promise<void> {
    this.enter();
    await this.released;
    this.isReleased = true;
  }
}

@ToolProvider()
class FirstTools {
  constructor(private readonly gate: Gate) {}

  @Action('ping', { description: 'Which code answers' })
  ping(): string {
    return 'first';
  }

  @Mutation('hold', { description: 'A mutation the test holds open across a reload' })
  async hold(): Promise<string> {
    await this.gate.hold();
    return 'held by the first code';
  }
}

@ToolProvider()
class SecondTools {
  constructor(private readonly gate: Gate) {}

  @Action('ping', { description: 'Which code answers' })
  ping(): string {
    return 'second';
  }

  @Action('added', { description: 'A tool the edit added' })
  added(): string {
    return 'added by the second code';
  }

  @Mutation('write', { description: 'A mutation of the second code' })
  write(): string {
    return this.gate.isReleased ? 'written after the held mutation' : 'written while the held mutation ran';
  }
}

@ToolProvider()
class SecondPrompts {
  @Prompt('hello', { description: 'A prompt the edit added' })
  hello() {
    return 'Say hello.';
  }
}

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe('app.adopt: a new definition served under the same listener and sessions', () => {
  it('a 2025-era session is kept, told of the changed lists, and calls the new tool; a 2026-era client sees it', async () => {
    const gate = new Gate();
    const lock = new ObservedLock();
    const closed: string[] = [];
    const app = FusionApp.create({
      tools: [FirstTools],
      mutationLock: lock,
      providers: [{ provide: Gate, useValue: gate }],
      onClose: () => void closed.push('first'),
      logger: () => undefined
    });
    const { url } = await app.listen({ transport: 'http', port: 0, handleSignals: false });
    const transport = new StreamableHTTPClientTransport(url!);
    const legacy = new Client({ name: 'legacy', version: '1' });
    await legacy.connect(transport);
    expect(legacy.getProtocolEra()).toBe('legacy');
    const sessionId = transport.sessionId;
    const toolsChanged = new Promise<void>((resolve) => legacy.setNotificationHandler('notifications/tools/list_changed', () => resolve()));
    const promptsChanged = new Promise<void>((resolve) =>
      legacy.setNotificationHandler('notifications/prompts/list_changed', () => resolve())
    );
    let resourcesChanged = false;
    legacy.setNotificationHandler('notifications/resources/list_changed', () => void (resourcesChanged = true));
    expect(text(await legacy.callTool({ name: 'ping', arguments: {} }))).toBe('first');

    // A mutation of the first code is in flight (it holds the mutation lock) when the definition changes.
    const held = legacy.callTool({ name: 'hold', arguments: {} });
    await gate.entered;
    const changes = await app.adopt(
      FusionApp.create({
        tools: [SecondTools, SecondPrompts],
        providers: [{ provide: Gate, useValue: gate }],
        onClose: () => void closed.push('second'),
        logger: () => undefined
      })
    );
    expect(changes).toEqual({ tools: true, prompts: true, resources: false });
    await Promise.all([toolsChanged, promptsChanged]);

    // Same session, no new initialize: the new code answers.
    expect(transport.sessionId).toBe(sessionId);
    expect(text(await legacy.callTool({ name: 'added', arguments: {} }))).toBe('added by the second code');
    expect(text(await legacy.callTool({ name: 'ping', arguments: {} }))).toBe('second');
    const modern = new Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await modern.connect(new StreamableHTTPClientTransport(url!));
    expect((await modern.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['added', 'ping', 'write']);

    // The new code's mutation waits for the lock the first code's call holds (the same lock), then runs once it is released.
    const waited = lock.waited();
    const write = legacy.callTool({ name: 'write', arguments: {} });
    await Promise.race([waited, write.then(() => Promise.reject(new Error('the new mutation ran while the held one held the lock')))]);
    expect(closed).toEqual([]);
    gate.release();
    expect(text(await held)).toBe('held by the first code');
    expect(text(await write)).toBe('written after the held mutation');
    expect(resourcesChanged).toBe(false);

    await Promise.all([legacy.close(), modern.close()]);
    await app.close();
    // The first definition was released after its last call; the second at close.
    expect(closed).toEqual(['first', 'second']);
  });

  it('a definition whose extension fails to start leaves the app serving the one it had', async () => {
    const app = FusionApp.create({ tools: [SecondTools], providers: [{ provide: Gate, useValue: new Gate() }], logger: () => undefined });
    const { url } = await app.listen({ transport: 'http', port: 0, handleSignals: false });
    const broken = FusionApp.create({
      tools: [FirstTools],
      providers: [{ provide: Gate, useValue: new Gate() }],
      extensions: [
        {
          id: 'com.example/broken',
          start: () => {
            throw new Error('cannot start');
          }
        }
      ],
      logger: () => undefined
    });
    await expect(app.adopt(broken)).rejects.toThrow(/cannot start/);
    const client = new Client({ name: 'legacy', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(url!));
    expect(text(await client.callTool({ name: 'ping', arguments: {} }))).toBe('second');
    await client.close();
    await app.close();
  });

  it('an app given to adopt is spent, and an app cannot adopt itself', async () => {
    const providers = [{ provide: Gate, useValue: new Gate() }];
    const app = FusionApp.create({ tools: [SecondTools], providers, logger: () => undefined });
    const next = FusionApp.create({ tools: [SecondTools], providers, logger: () => undefined });
    await expect(app.adopt(app)).rejects.toThrow(/itself/);
    await app.adopt(next);
    expect(() => next.listTools()).toThrow(/shutting down/);
    expect(app.listTools().map((tool) => tool.name)).toEqual(['ping', 'added', 'write']);
    await app.close();
  });
});
