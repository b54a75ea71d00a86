import { IsInt, IsString } from 'class-validator';
import { inject, injectable } from 'tsyringe';
import {
  Action,
  CALL_CONTEXT,
  CALL_SIGNAL,
  Ctx,
  FusionApp,
  Input,
  Mutation,
  Signal,
  ToolProvider,
  type CallContext,
  type FusionMiddleware,
  type MiddlewareFn,
  type Next
} from '../../src';

const events: string[] = [];
const record =
  (label: string): MiddlewareFn =>
  async (_ctx, next) => {
    events.push(`${label}>`);
    const out = await next();
    events.push(`<${label}`);
    return out;
  };

class Named {
  @IsString() name!: string;
}

class Greeter {
  greet(_name: string): string {
    throw new Error('bind Greeter to an implementation');
  }
}

@injectable()
class EnglishGreeter extends Greeter {
  greet(name: string) {
    return `Hello, ${name}`;
  }
}

@injectable()
class RequestScoped {
  constructor(
    @inject(CALL_CONTEXT) readonly ctx: CallContext<{ user: string }>,
    @inject(CALL_SIGNAL) readonly signal: AbortSignal
  ) {}
}

@injectable()
class ClassMiddleware implements FusionMiddleware {
  constructor(private readonly greeter: Greeter) {}
  async use(_ctx: CallContext, next: Next) {
    events.push(`class-mw(${this.greeter.greet('mw')})>`);
    return next();
  }
}

@ToolProvider({ middleware: [ClassMiddleware] })
class Desk {
  constructor(
    private readonly greeter: Greeter,
    private readonly scoped: RequestScoped
  ) {}

  @Action('greet', { description: 'Greets', middleware: [record('method')] })
  greet(@Input() input: Named, @Ctx() ctx: CallContext<{ user: string }>, @Signal() signal: AbortSignal) {
    events.push('handler');
    return {
      text: this.greeter.greet(input.name),
      user: ctx.user,
      sameSignal: signal === ctx.signal && this.scoped.signal === signal,
      sameContext: this.scoped.ctx === ctx
    };
  }

  @Mutation('write', { description: 'Writes' })
  write() {
    return 'written';
  }
}

describe('the compiled chain', () => {
  const twice: MiddlewareFn = async (_ctx, next) => {
    await next();
    return next();
  };

  it('is built once per tool in the documented order', () => {
    const app = FusionApp.create({
      tools: [Desk],
      providers: [{ provide: Greeter, useClass: EnglishGreeter }],
      middleware: [record('global')]
    });
    expect(app.describeChain('greet')).toEqual([
      'error-boundary',
      'flush',
      'present',
      'queue',
      'context',
      'middleware:anonymous',
      'middleware:ClassMiddleware',
      'middleware:anonymous',
      'validate-input',
      'invoke-tool'
    ]);
    expect(app.describeChain('write')).toEqual([
      'error-boundary',
      'flush',
      'present',
      'queue',
      'context',
      'middleware:anonymous',
      'middleware:ClassMiddleware',
      'mutation-lock',
      'validate-input',
      'invoke-tool'
    ]);
  });

  it('runs global, then class, then method middleware, then the handler, with DI and per-call tokens', async () => {
    events.length = 0;
    const app = FusionApp.create({
      tools: [Desk],
      providers: [{ provide: Greeter, useClass: EnglishGreeter }],
      middleware: [record('global')],
      contextFactory: (extra) => ({ user: `user-of-${extra.toolName}` })
    });
    const result = await app.callTool('greet', { name: 'Ada' });
    expect(result.structuredContent).toEqual({ text: 'Hello, Ada', user: 'user-of-greet', sameSignal: true, sameContext: true });
    expect(events).toEqual(['global>', 'class-mw(Hello, mw)>', 'method>', 'handler', '<method', '<global']);
    await app.close();
  });

  it('makes next() twice an error result', async () => {
    const app = FusionApp.create({ tools: [Desk], providers: [{ provide: Greeter, useClass: EnglishGreeter }], middleware: [twice] });
    const result = await app.callTool('write');
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'next() called more than once in one middleware; call it at most once.' }]
    });
    await app.close();
  });

  it('lets tests override providers in the app container, without touching other apps', async () => {
    const real = FusionApp.create({ tools: [Desk], providers: [{ provide: Greeter, useClass: EnglishGreeter }] });
    const faked = FusionApp.create({ tools: [Desk], providers: [{ provide: Greeter, useClass: EnglishGreeter }] });
    faked.container.register(Greeter, { useValue: { greet: (n: string) => `FAKE ${n}` } });
    expect((await faked.callTool('greet', { name: 'x' })).structuredContent).toMatchObject({ text: 'FAKE x' });
    expect((await real.callTool('greet', { name: 'x' })).structuredContent).toMatchObject({ text: 'Hello, x' });
    expect(real.container).not.toBe(faked.container);
    await Promise.all([real.close(), faked.close()]);
  });

  it('serializes mutations one at a time in arrival order', async () => {
    class N {
      @IsInt() n!: number;
    }
    const gates: Array<() => void> = [];
    const order: string[] = [];
    @ToolProvider()
    class Writer {
      @Mutation('slow.write', { description: 'd' })
      async write(@Input() input: N) {
        order.push(`start ${input.n}`);
        await new Promise<void>((resolve) => gates.push(resolve));
        order.push(`end ${input.n}`);
        return 'ok';
      }
    }
    const app = FusionApp.create({ tools: [Writer] });
    const calls = [1, 2, 3].map((n) => app.callTool('slow.write', { n }));
    const waitForGates = async (count: number) => {
      while (gates.length < count) await new Promise((r) => setImmediate(r));
    };
    for (let i = 1; i <= 3; i++) {
      await waitForGates(i);
      // Only the holder is inside: the next one has not started.
      expect(gates).toHaveLength(i);
      gates[i - 1]();
    }
    await Promise.all(calls);
    expect(order).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
    await app.close();
  });
});
