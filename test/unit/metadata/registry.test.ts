import { IsString } from 'class-validator';
import { Action, ConfigurationError, Ctx, FusionApp, Input, Interactive, Mutation, Signal, ToolProvider } from '../../../src';

class Query {
  @IsString() q!: string;
}

function startupError(tools: Array<new (...args: never[]) => unknown>): string {
  try {
    FusionApp.create({ tools });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error('expected a startup error');
}

describe('registry and startup errors', () => {
  it('builds descriptors with kind annotations, title and overrides', () => {
    @ToolProvider()
    class Good {
      @Action('good.read', { description: 'Reads', title: 'Read it' })
      read(@Input() q: Query, @Ctx() _ctx: unknown, @Signal() _signal: AbortSignal) {
        return q.q;
      }
      @Mutation('good.write', { description: 'Writes', annotations: { idempotentHint: true } })
      write() {
        return 'ok';
      }
      helper() {
        return 'not a tool';
      }
    }
    const app = FusionApp.create({ tools: [Good] });
    const [read, write] = app.listTools();
    expect(read).toMatchObject({
      name: 'good.read',
      title: 'Read it',
      description: 'Reads',
      annotations: { readOnlyHint: true, destructiveHint: false, title: 'Read it' }
    });
    expect(write).toMatchObject({ name: 'good.write', annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true } });
    expect(app.tools.map((t) => t.params)).toEqual([['input', 'context', 'signal'], []]);
    expect(app.listTools()).toHaveLength(2);
  });

  it('refuses a class that is not a tool provider', () => {
    class Plain {
      @Action('p', { description: 'd' })
      p() {}
    }
    expect(startupError([Plain])).toContain('Plain is not a tool provider: decorate it with @ToolProvider()');
  });

  it('refuses a missing description, naming class and method', () => {
    @ToolProvider()
    class NoDesc {
      @Action('x', {} as never)
      x() {}
    }
    expect(startupError([NoDesc])).toContain("NoDesc.x has no description: pass { description: '…' }");
  });

  it('refuses duplicate tool names across classes', () => {
    @ToolProvider()
    class A {
      @Action('same', { description: 'a' })
      a() {}
    }
    @ToolProvider()
    class B {
      @Mutation('same', { description: 'b' })
      b() {}
    }
    expect(startupError([A, B])).toContain('Duplicate tool name "same" on A.a and B.b');
  });

  it('refuses two kind decorators on one method', () => {
    @ToolProvider()
    class Both {
      @Action('r', { description: 'r' })
      @Mutation('w', { description: 'w' })
      m() {}
    }
    expect(startupError([Both])).toMatch(/Both\.m has @Mutation and @Action: a method serves one tool, resource or prompt/);
  });

  it('refuses an input parameter whose type is not a class', () => {
    interface NotAClass {
      q: string;
    }
    @ToolProvider()
    class BadInput {
      @Action('bad', { description: 'd' })
      m(@Input() _input: NotAClass) {}
      @Action('bad2', { description: 'd' })
      n(@Input() _input: string) {}
    }
    const message = startupError([BadInput]);
    expect(message).toContain("BadInput.m: the @Input() parameter's type (Object) is not a class");
    expect(message).toContain("BadInput.n: the @Input() parameter's type (String) is not a class");
  });

  it('refuses an undecorated parameter', () => {
    @ToolProvider()
    class Undecorated {
      @Action('u', { description: 'd' })
      m(_x: Query) {}
    }
    expect(startupError([Undecorated])).toContain('Undecorated.m: parameter 1 has no decorator: mark it @Input(), @Ctx() or @Signal()');
  });

  it('refuses decorators on a non-method', () => {
    @ToolProvider()
    class OnProperty {
      @(Action('prop', { description: 'd' }) as PropertyDecorator)
      value = 1;
    }
    expect(startupError([OnProperty])).toContain('@Action on OnProperty.value, which is not a method: put it on a method');
  });

  it('refuses tool names the protocol does not allow', () => {
    @ToolProvider()
    class BadNames {
      @Action('has space', { description: 'd' })
      a() {}
      @Action('x'.repeat(129), { description: 'd' })
      b() {}
      @Action('', { description: 'd' })
      c() {}
    }
    const message = startupError([BadNames]);
    expect(message).toContain('BadNames.a: tool name "has space" is not allowed');
    expect(message).toContain('BadNames.b: tool name');
    expect(message).toContain('BadNames.c: tool name "" is not allowed');
  });

  it('refuses @Interactive without a kind, and a bad timeout', () => {
    @ToolProvider()
    class Odd {
      @Interactive()
      ask() {}
      @Action('slow', { description: 'd', timeoutMs: -5 })
      slow() {}
    }
    const message = startupError([Odd]);
    expect(message).toContain('Odd.ask has @Interactive() but no @Action, @Mutation, @Prompt or @ResourceTemplate');
    expect(message).toContain('Odd.slow: timeoutMs must be a positive number');
  });

  it('reports every problem at once', () => {
    @ToolProvider()
    class Many {
      @Action('ok name', {} as never)
      a() {}
    }
    expect(startupError([Many])).toMatch(/2 problem\(s\)/);
  });

  it('marks @Interactive tools', () => {
    @ToolProvider()
    class Asks {
      @Interactive()
      @Mutation('asks', { description: 'd' })
      a() {}
    }
    expect(FusionApp.create({ tools: [Asks] }).tools[0]).toMatchObject({ kind: 'mutation', interactive: true });
  });
});
