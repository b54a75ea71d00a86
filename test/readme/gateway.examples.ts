/*
 * The snippets of docs/gateway.md, as the program they are part of (test/readme/readme.test.ts
 * checks each block appears here verbatim).
 */
import 'reflect-metadata';
import { Action, ToolProvider } from '@mcpfusion/core';
import { FusionApp, proxy } from '@mcpfusion/core';

/** The front app's own tools, served beside the proxied ones. */
@ToolProvider()
export class MyOwnTools {
  @Action('front.hello', { description: 'Says hello from the front app' })
  hello() {
    return 'hello';
  }
}

/** The sample desk behind a front app on port 3100, under the namespace `desk`. */
export async function startFront(): Promise<FusionApp> {
  // Spawned over stdio (no shell: program and arguments), or a URL: proxy('http://127.0.0.1:3000/mcp', …)
  const desk = await proxy({ command: 'node', args: ['build/sample-app/main.js', '--stdio'] }, { namespace: 'desk' });

  const app = FusionApp.create({ name: 'front', version: '1.0.0', tools: [MyOwnTools], gateways: [desk] });
  await app.listen({ transport: 'http', port: 3100 });
  return app;
}
