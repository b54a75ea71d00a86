import { IsInt, Min } from 'class-validator';
import { Action, FusionApp, Input, ToolProvider } from '../src';
import { connectTestClient } from '../src/testing';

class Q {
  @IsInt() @Min(1) id!: number;
}

@ToolProvider()
class T {
  @Action('echo', { description: 'echo' })
  echo(@Input() q: Q) {
    return { id: q.id, secret: 1 };
  }
}

test('smoke', async () => {
  const app = FusionApp.create({ tools: [T] });
  expect(await app.callTool('echo', { id: 2 })).toEqual({ content: [{ type: 'text', text: '{"id":2,"secret":1}' }], structuredContent: { id: 2, secret: 1 } });
  const bad = await app.callTool('echo', { id: 0, x: 1 });
  expect(bad.isError).toBe(true);
  console.log(bad.content);
  for (const era of ['modern', 'legacy-http', 'legacy-memory'] as const) {
    const { client, close } = await connectTestClient(app, { era });
    const list = await client.listTools();
    expect(list.tools[0].name).toBe('echo');
    const r = await client.callTool({ name: 'echo', arguments: { id: 3 } });
    expect(r.structuredContent).toEqual({ id: 3, secret: 1 });
    await close();
  }
  await app.close();
});
