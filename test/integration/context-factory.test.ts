import { Action, Ctx, FusionApp, ToolProvider, type CallContext } from '../../src';

@ToolProvider()
class Who {
  @Action('who', { description: 'Says who is calling.' })
  who(@Ctx() ctx: CallContext<{ tenant: string }>) {
    return `tenant ${ctx.tenant}, tool ${ctx.tool.name}`;
  }
}

describe('contextFactory adds fields to the call context, and never shadows the framework fields', () => {
  it('adds what it returns to ctx', async () => {
    const app = FusionApp.create({ tools: [Who], contextFactory: () => ({ tenant: 'acme' }) });
    expect(await app.callTool('who')).toEqual({ content: [{ type: 'text', text: 'tenant acme, tool who' }] });
    await app.close();
  });

  it('refuses a factory that returns a field the framework owns (signal, auth, tool, …), naming it; the handler does not run', async () => {
    const app = FusionApp.create({
      tools: [Who],
      // @ts-expect-error -- `signal` and `tool` are the framework's: the type says so before run time does
      contextFactory: () => ({ tenant: 'acme', signal: new AbortController().signal, tool: 'mine' })
    });
    const result = await app.callTool('who');
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: 'text',
        text: expect.stringMatching(/^contextFactory returned signal, tool, which the framework sets on every call context/)
      }
    ]);
    await app.close();
  });
});
