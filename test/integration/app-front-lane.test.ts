import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { IsString } from 'class-validator';
import { Action, FusionApp, Input, ToolProvider, progress } from '../../src';
import { modernPostHeaders } from '../helpers/raw-http';

/**
 * The front fast lane in an ordinary app (no gateway): on by default, in both eras, it answers what
 * the normal path answers, byte for byte, its check of a tool's result included (a handler may
 * return any object with a `content` array; the SDK's server checks it against the spec's result
 * schema). With `frontLane: true` (the gateway's form) a quick 2025-era call is answered as one JSON
 * body, with the same outcome. Real SDK clients and raw requests through the endpoints' `fetch`.
 */

type Json = Record<string, unknown>;
type Handler = ReturnType<FusionApp['createHttpHandler']>;

class EchoInput {
  @IsString() text!: string;
}

@ToolProvider()
class ShapedTools {
  @Action('echo', { description: 'Says it back' })
  echo(@Input() input: EchoInput) {
    return `echo: ${input.text}`;
  }

  @Action('bogus', { description: 'Returns a content block the spec does not define' })
  bogus() {
    return { content: [{ type: 'bogus', text: 'x' }] };
  }

  @Action('extra', { description: 'Returns blocks with members the spec does not name' })
  extra() {
    return { content: [{ extra: 1, text: 'kept', type: 'text' }], other: 2 };
  }

  @Action('steps', { description: 'Reports progress, then answers' })
  async *steps() {
    yield progress(50, 'half');
    return 'done';
  }
}

const ENVELOPE: Json = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }
};

/** A raw 2026-07-28 `tools/call` POST. */
function rawCall(name: string, args: Json, meta: Json = {}): Request {
  return new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: modernPostHeaders('tools/call', name),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name, arguments: args, _meta: { ...ENVELOPE, ...meta } }
    })
  });
}

async function answerOf(response: Response): Promise<{ status: number; type: string | null; body: string }> {
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

async function clientOf(handler: Handler, era: 'legacy' | 'modern'): Promise<Client> {
  const client = new Client(
    { name: 'app', version: '1.0.0' },
    { versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } }
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) })
  );
  return client;
}

/** A 2025-era client whose `tools/call` answers are kept as they came (status, content type, body). */
async function recordingClient(
  handler: Handler
): Promise<{ client: Client; answers: { status: number; type: string | null; body: string }[] }> {
  const answers: { status: number; type: string | null; body: string }[] = [];
  const client = new Client({ name: 'app', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: async (url, init) => {
        const response = await handler.fetch(new Request(url, init));
        if (typeof init?.body !== 'string' || !init.body.includes('"tools/call"')) return response;
        answers.push(await answerOf(response.clone()));
        return response;
      }
    })
  );
  return { client, answers };
}

/** A call's outcome as a client sees it: its result, or its error's code and message. */
async function outcomeOf(client: Client, name: string): Promise<unknown> {
  try {
    return await client.callTool({ name, arguments: {} });
  } catch (error) {
    return { code: (error as { code?: unknown }).code, message: (error as Error).message };
  }
}

describe('the front fast lane in an ordinary app', () => {
  let app: FusionApp;
  let byDefault: Handler;
  let off: Handler;
  let both: Handler;

  beforeAll(() => {
    app = FusionApp.create({ name: 'shaped', version: '1.0.0', tools: [ShapedTools], logger: () => undefined });
    byDefault = app.createHttpHandler();
    off = app.createHttpHandler({ frontLane: false });
    both = app.createHttpHandler({ frontLane: true });
  });
  afterAll(async () => {
    await Promise.all([byDefault?.close(), off?.close(), both?.close()]);
    await app?.close();
  });

  it('serves 2026-07-28 calls on the lane by default, and none with frontLane: false', async () => {
    const before = byDefault.frontLane!.served;
    const client = await clientOf(byDefault, 'modern');
    await expect(client.callTool({ name: 'echo', arguments: { text: 'hi' } })).resolves.toMatchObject({
      content: [{ type: 'text', text: 'echo: hi' }]
    });
    await client.close();
    expect(byDefault.frontLane!.served).toBe(before + 1);
    expect(off.frontLane).toBeUndefined();
  });

  it.each([
    ['a text result', 'echo', { text: 'x' }, {}],
    ['a block the spec does not define (-32602 Invalid tools/call result)', 'bogus', {}, {}],
    ['members the spec does not name (dropped from the block, kept on the result)', 'extra', {}, {}],
    ['progress, then the result (an SSE stream)', 'steps', {}, { progressToken: 'p' }]
  ])('answers %s as the normal path does, byte for byte', async (_case, name, args, meta) => {
    const before = byDefault.frontLane!.served;
    const [laned, normal] = await Promise.all([
      byDefault.fetch(rawCall(name, args, meta)).then(answerOf),
      off.fetch(rawCall(name, args, meta)).then(answerOf)
    ]);
    expect(byDefault.frontLane!.served).toBe(before + 1);
    expect(laned).toEqual(normal);
    if (name === 'bogus')
      expect(JSON.parse(laned.body)).toMatchObject({
        error: { code: -32602, message: expect.stringMatching(/^Invalid tools\/call result: /) }
      });
    if (name === 'extra') expect(JSON.parse(laned.body).result).toMatchObject({ content: [{ type: 'text', text: 'kept' }], other: 2 });
    if (name === 'extra') expect(JSON.parse(laned.body).result.content[0]).not.toHaveProperty('extra');
  });

  it('serves 2025-era session calls on the lane by default, streamed as the normal path streams them, byte for byte', async () => {
    const before = byDefault.frontLane!.served;
    const [laned, normal] = await Promise.all([recordingClient(byDefault), recordingClient(off)]);
    for (const name of ['echo', 'bogus', 'extra', 'steps']) {
      const outcomes = await Promise.all([outcomeOf(laned.client, name), outcomeOf(normal.client, name)]);
      expect(outcomes[0]).toEqual(outcomes[1]);
    }
    // With a progress token: its progress event, then the response.
    const progressed: unknown[][] = [[], []];
    await Promise.all(
      [laned, normal].map((side, i) =>
        side.client.callTool({ name: 'steps', arguments: {} }, { onprogress: (p) => void progressed[i]!.push(p) })
      )
    );
    expect(progressed[0]).toEqual([{ progress: 50, total: 100, message: 'half' }]);
    expect(progressed[0]).toEqual(progressed[1]);
    expect(byDefault.frontLane!.served).toBe(before + 5);
    // Each answer an SSE stream: the priming event (its id, the retry interval), then the response, the same bytes.
    expect(laned.answers).toHaveLength(5);
    expect(laned.answers).toEqual(normal.answers);
    expect(laned.answers[0]).toMatchObject({ type: 'text/event-stream', body: expect.stringMatching(/^id: \S+\nretry: \d+\ndata: \n\n/) });
    expect(await outcomeOf(normal.client, 'bogus')).toMatchObject({
      code: -32602,
      message: expect.stringContaining('Invalid tools/call result')
    });
    await Promise.all([laned.client.close(), normal.client.close()]);
  });

  it("answers 2025-era calls as one JSON body with frontLane: true (the gateway's form), with the same outcomes", async () => {
    const before = both.frontLane!.served;
    const [fast, normal] = await Promise.all([clientOf(both, 'legacy'), clientOf(off, 'legacy')]);
    for (const name of ['echo', 'bogus', 'extra']) {
      const outcomes = await Promise.all([outcomeOf(fast, name), outcomeOf(normal, name)]);
      expect(outcomes[0]).toEqual(outcomes[1]);
    }
    expect(both.frontLane!.served).toBe(before + 3);
    await Promise.all([fast.close(), normal.close()]);
  });
});
