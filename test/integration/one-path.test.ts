import { IsString } from 'class-validator';
import { inject } from 'tsyringe';
import {
  Action,
  CALL_CONTEXT,
  Ctx,
  FusionApp,
  Input,
  Prompt,
  Resource,
  ResourceTemplate,
  Signal,
  ToolError,
  ToolProvider,
  type CallContext,
  type MiddlewareFn
} from '../../src';
import { connectTestClient } from '../../src/testing';

/** Every kind of request runs through the same compiled chain, with one error boundary. */

class Vars {
  @IsString() id!: string;
}

class Args {
  @IsString() topic!: string;
}

/** A handler that waits until it is told to finish, or is aborted. */
class Gate {
  release!: () => void;
  readonly entered: Promise<void>;
  private markEntered!: () => void;
  constructor() {
    this.entered = new Promise((resolve) => (this.markEntered = resolve));
  }
  wait(signal: AbortSignal): Promise<string> {
    this.markEntered();
    return new Promise((resolve, reject) => {
      this.release = () => resolve('released');
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  }
}

@ToolProvider()
class Everything {
  constructor(private readonly gate: Gate) {}

  @Action('tool.plain', { description: 'x' })
  plain() {
    return 'tool ran';
  }

  @Action('tool.blocking', { description: 'x' })
  blocking(@Signal() signal: AbortSignal) {
    return this.gate.wait(signal);
  }

  @Action('tool.fails', { description: 'x' })
  fails(): string {
    throw new Error('connect ECONNREFUSED 10.0.0.7:5432 (password=hunter2)');
  }

  @Action('tool.refuses', { description: 'x' })
  refuses(): string {
    throw new ToolError('Invoice 9 not found: call billing.list for the ids.');
  }

  @Resource('demo://fixed', { name: 'fixed' })
  fixed() {
    return 'fixed text';
  }

  @ResourceTemplate('demo://things/{id}', { name: 'thing', complete: { id: 'completeId' } })
  thing(@Input() vars: Vars) {
    if (vars.id === 'broken') throw new Error('disk I/O error at sector 7');
    return { id: vars.id };
  }

  completeId(value: string) {
    return ['a1', 'a2', 'b1'].filter((id) => id.startsWith(value));
  }

  @Prompt('prompt.plain', { description: 'x' })
  prompt(@Input() args: Args) {
    return `Write about ${args.topic}`;
  }

  @Resource('demo://slow', { name: 'slow', timeoutMs: 20 })
  slow(@Signal() signal: AbortSignal) {
    return this.gate.wait(signal);
  }

  @Prompt('prompt.guarded', { description: 'x', middleware: [(ctx, next) => (ctx.args.topic === 'secret' ? 'redacted' : next())] })
  guarded(@Input() args: Args) {
    return `About ${args.topic}`;
  }

  @Prompt('prompt.blocking', { description: 'x' })
  promptBlocking(@Input() _args: Args, @Signal() signal: AbortSignal) {
    return this.gate.wait(signal);
  }
}

function appWith(options: { middleware?: MiddlewareFn[]; maskErrors?: boolean; logger?: (m: string) => void; maxActive?: number } = {}) {
  const gate = new Gate();
  const app = FusionApp.create({
    tools: [Everything],
    providers: [{ provide: Gate, useValue: gate }],
    middleware: options.middleware,
    maskErrors: options.maskErrors,
    logger: options.logger,
    concurrency: options.maxActive ? { maxActive: options.maxActive } : undefined
  });
  return { app, gate };
}

describe('middleware runs for every kind of request', () => {
  it('sees the kind and the name of tools, resources, templates, prompts and completions', async () => {
    const seen: string[] = [];
    const { app } = appWith({ middleware: [(ctx, next) => (seen.push(`${ctx.tool.kind} ${ctx.tool.name}`), next())] });
    const { client, close } = await connectTestClient(app);
    await client.callTool({ name: 'tool.plain', arguments: {} });
    await client.readResource({ uri: 'demo://fixed' });
    await client.readResource({ uri: 'demo://things/7' });
    await client.getPrompt({ name: 'prompt.plain', arguments: { topic: 'x' } });
    await client.complete({ ref: { type: 'ref/resource', uri: 'demo://things/{id}' }, argument: { name: 'id', value: 'a' } });
    expect(seen).toEqual([
      'action tool.plain',
      'resource demo://fixed',
      'resource-template demo://things/{id}',
      'prompt prompt.plain',
      'resource-template demo://things/{id}'
    ]);
    await close();
    await app.close();
  });

  it('can refuse a resources/read and a prompts/get: the handler does not run, the client gets a JSON-RPC error', async () => {
    const guard: MiddlewareFn = (ctx, next) => {
      if (ctx.tool.kind !== 'action') throw new ToolError(`${ctx.tool.name} is not for you`);
      return next();
    };
    const { app } = appWith({ middleware: [guard] });
    const { client, close } = await connectTestClient(app);
    await expect(client.readResource({ uri: 'demo://fixed' })).rejects.toThrow(/demo:\/\/fixed is not for you/);
    await expect(client.getPrompt({ name: 'prompt.plain', arguments: { topic: 'x' } })).rejects.toThrow(/prompt.plain is not for you/);
    expect((await client.callTool({ name: 'tool.plain', arguments: {} })).content).toEqual([{ type: 'text', text: 'tool ran' }]);
    await close();
    await app.close();
  });
});

describe('describeChain shows the whole call, for every kind', () => {
  it('tools, resources, templates and prompts', () => {
    const { app } = appWith({ middleware: [(_ctx, next) => next()] });
    expect(app.describeChain('tool.plain')).toEqual([
      'error-boundary',
      'flush',
      'present',
      'queue',
      'context',
      'middleware:anonymous',
      'validate-input',
      'invoke-tool'
    ]);
    expect(app.describeChain('demo://fixed', 'resource')).toEqual([
      'error-boundary',
      'flush',
      'present',
      'queue',
      'context',
      'middleware:anonymous',
      'read-resource'
    ]);
    expect(app.describeChain('demo://things/{id}', 'resource')).toEqual([
      'error-boundary',
      'flush',
      'present',
      'queue',
      'context',
      'middleware:anonymous',
      'validate-input',
      'read-resource'
    ]);
    expect(app.describeChain('prompt.plain', 'prompt')).toEqual([
      'error-boundary',
      'flush',
      'present',
      'queue',
      'context',
      'middleware:anonymous',
      'validate-input',
      'render-prompt'
    ]);
    void app.close();
  });
});

describe('resources and prompts get the queue and cancellation like tools', () => {
  it('a prompt waits for a queue slot held by a tool, and runs once it is free', async () => {
    const { app, gate } = appWith({ maxActive: 1 });
    const { client, close } = await connectTestClient(app);
    const tool = client.callTool({ name: 'tool.blocking', arguments: {} });
    await gate.entered;
    let promptDone = false;
    const prompt = client.getPrompt({ name: 'prompt.plain', arguments: { topic: 'queues' } }).then((r) => ((promptDone = true), r));
    await new Promise((resolve) => setImmediate(resolve));
    expect(promptDone).toBe(false); // no slot yet
    gate.release();
    expect((await tool).content).toEqual([{ type: 'text', text: 'released' }]);
    expect(((await prompt).messages[0].content as { text: string }).text).toBe('Write about queues');
    await close();
    await app.close();
  });

  it('a prompt whose handler hangs is ended by the client cancelling it, and frees its slot', async () => {
    const { app, gate } = appWith({ maxActive: 1 });
    const { client, close } = await connectTestClient(app);
    const controller = new AbortController();
    const stuck = client.getPrompt({ name: 'prompt.blocking', arguments: { topic: 'x' } }, { signal: controller.signal });
    await gate.entered;
    controller.abort('the user gave up');
    await expect(stuck).rejects.toThrow();
    // The slot is free again: a tool runs.
    expect((await client.callTool({ name: 'tool.plain', arguments: {} })).content).toEqual([{ type: 'text', text: 'tool ran' }]);
    expect(app.activeCalls).toBe(0);
    await close();
    await app.close();
  });
});

describe('per-member options on resources and prompts', () => {
  it('a resource with timeoutMs is ended after it (its handler sees the abort), and a prompt runs its own middleware', async () => {
    const { app } = appWith();
    const { client, close } = await connectTestClient(app);
    await expect(client.readResource({ uri: 'demo://slow' })).rejects.toThrow(
      /Resource demo:\/\/slow timed out after 20 ms and was stopped/
    );
    expect(app.describeChain('demo://slow', 'resource')).toContain('timeout');
    const guarded = await client.getPrompt({ name: 'prompt.guarded', arguments: { topic: 'secret' } });
    expect((guarded.messages[0].content as { text: string }).text).toBe('redacted');
    const open = await client.getPrompt({ name: 'prompt.guarded', arguments: { topic: 'tea' } });
    expect((open.messages[0].content as { text: string }).text).toBe('About tea');
    await close();
    await app.close();
  });
});

describe('one error boundary', () => {
  it('by default an exception message is sent as thrown (no stack trace), for tools and resources', async () => {
    const { app } = appWith();
    const { client, close } = await connectTestClient(app);
    const failed = await client.callTool({ name: 'tool.fails', arguments: {} });
    expect(failed).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'connect ECONNREFUSED 10.0.0.7:5432 (password=hunter2)' }]
    });
    await expect(client.readResource({ uri: 'demo://things/broken' })).rejects.toThrow(/disk I\/O error/);
    await close();
    await app.close();
  });

  it('maskErrors: clients get a generic message with a reference, the log has the original under it; ToolError is still sent', async () => {
    const logged: string[] = [];
    const { app } = appWith({ maskErrors: true, logger: (m) => logged.push(m) });
    const { client, close } = await connectTestClient(app);
    const failed = await client.callTool({ name: 'tool.fails', arguments: {} });
    const text = (failed.content[0] as { text: string }).text;
    const reference = /^Internal error \(reference ([0-9a-f]{8})\)/.exec(text)?.[1];
    expect(failed.isError).toBe(true);
    expect(reference).toBeDefined();
    expect(text).not.toContain('hunter2');
    expect(logged.some((m) => m.includes(`reference ${reference}`) && m.includes('hunter2'))).toBe(true);
    const refused = await client.callTool({ name: 'tool.refuses', arguments: {} });
    expect(refused.content).toEqual([{ type: 'text', text: 'Invoice 9 not found: call billing.list for the ids.' }]);
    await expect(client.readResource({ uri: 'demo://things/broken' })).rejects.toThrow(/^.*Internal error \(reference [0-9a-f]{8}\)/);
    expect(logged.some((m) => m.includes('disk I/O error'))).toBe(true);
    // Framework errors (invalid arguments here) are never masked: they say what to fix.
    const invalid = await client.callTool({ name: 'tool.plain', arguments: { extra: 1 } });
    expect((invalid.content[0] as { text: string }).text).toContain('property extra should not exist');
    await close();
    await app.close();
  });
});

describe('after close', () => {
  it('every public method refuses use; close stays idempotent', async () => {
    const { app } = appWith();
    await app.close();
    await app.close();
    expect(() => app.listTools()).toThrow(/shutting down/);
    expect(() => app.createHttpHandler()).toThrow(/shutting down/);
    expect(() => app.describeChain('tool.plain')).toThrow(/shutting down/);
    await expect(app.listen({ transport: 'http', port: 0, handleSignals: false })).rejects.toThrow(/shutting down/);
    expect((await app.callTool('tool.plain')).content).toEqual([{ type: 'text', text: 'The app is shutting down; the call was not run.' }]);
  });
});

describe('per-call containers', () => {
  let disposed = 0;
  let lastContainer: unknown;

  @ToolProvider()
  class Scoped {
    constructor(@inject(CALL_CONTEXT) readonly ctx: CallContext) {}
    @Action('scoped.run', { description: 'x' })
    run() {
      lastContainer = this.ctx.container;
      return 'ran';
    }
    dispose() {
      disposed++;
    }
  }

  @ToolProvider()
  class Unscoped {
    @Action('unscoped.run', { description: 'x' })
    run(@Ctx() _ctx: CallContext) {
      return 'ran';
    }

    @Action('unscoped.container', { description: 'x' })
    container(@Ctx() ctx: CallContext) {
      return ctx.container.resolve(CALL_CONTEXT) === ctx ? 'made, with the context in it' : 'wrong';
    }
  }

  it('are made where a per-call token is injected, and disposed (with their Disposable instances) when the call ends', async () => {
    const app = FusionApp.create({ tools: [Scoped, Unscoped] });
    await app.callTool('scoped.run');
    await app.callTool('scoped.run');
    await new Promise((resolve) => setImmediate(resolve)); // disposal runs after the response
    expect(disposed).toBe(2);
    expect(lastContainer).not.toBe(app.container);
    await app.close();
  });

  it('are not made where nothing per-call is injected; ctx.container still makes one on demand', async () => {
    const created = jest.fn();
    const app = FusionApp.create({ tools: [Unscoped] });
    const original = app.container.createChildContainer.bind(app.container);
    app.container.createChildContainer = () => {
      created();
      return original();
    };
    expect((await app.callTool('unscoped.run')).content).toEqual([{ type: 'text', text: 'ran' }]);
    expect(created).not.toHaveBeenCalled();
    expect((await app.callTool('unscoped.container')).content).toEqual([{ type: 'text', text: 'made, with the context in it' }]);
    expect(created).toHaveBeenCalledTimes(1);
    await app.close();
  });
});
