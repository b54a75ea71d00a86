import { FusionApp } from '../../src';
import type { FusionExtension } from '../../src/advanced';
import { DeskTools, Probe } from '../fixtures/desk-tools';
import { modernRequest, postRaw, responseOf } from '../helpers/raw-http';

const TICKS = 'com.example/ticks';

/** An extension answering listens that name `notifications.ticks`: one message per tick, then the stream ends. */
function ticksExtension(seen: Array<Record<string, unknown>>): FusionExtension {
  return {
    id: TICKS,
    requiresOptIn: true,
    listens: {
      accepts: (params) => typeof (params.notifications as { ticks?: unknown } | undefined)?.ticks === 'number',
      open: async (request) => {
        seen.push({ id: request.id, optedIn: request.clientSettings, era: request.era });
        const ticks = (request.params.notifications as { ticks: number }).ticks;
        const events = Array.from({ length: ticks }, (_, i) => {
          const message = { jsonrpc: '2.0', method: 'notifications/com.example/tick', params: { n: i + 1, listen: request.id } };
          return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
        }).join('');
        return new Response(events, { headers: { 'content-type': 'text/event-stream' } });
      }
    }
  };
}

describe('an extension answers the subscriptions/listen it accepts (the way task listens are served)', () => {
  let app: FusionApp;
  let url: URL;
  const seen: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    app = FusionApp.create({
      tools: [DeskTools],
      providers: [{ provide: Probe, useValue: new Probe() }],
      extensions: [ticksExtension(seen)]
    });
    ({ url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL });
  });
  afterAll(async () => {
    await app.close();
  });

  it('its stream is the extension’s, with the listen id and the client’s opt-in', async () => {
    const { body, headers } = modernRequest(
      'subscriptions/listen',
      { notifications: { ticks: 2 } },
      { capabilities: { extensions: { [TICKS]: { fast: true } } } }
    );
    const answer = await postRaw(url, body, headers);
    expect(answer.messages.map((m) => m.params)).toEqual([
      { n: 1, listen: JSON.parse(body).id },
      { n: 2, listen: JSON.parse(body).id }
    ]);
    expect(seen).toEqual([{ id: JSON.parse(body).id, optedIn: { fast: true }, era: 'modern' }]);
  });

  it('a client that did not opt in is refused with -32021 (requiresOptIn), as the listen’s JSON-RPC error', async () => {
    const { body, headers } = modernRequest('subscriptions/listen', { notifications: { ticks: 1 } });
    expect(responseOf(await postRaw(url, body, headers)).error).toMatchObject({ code: -32021 });
  });

  it('a listen no extension accepts goes to the core listen router as before', async () => {
    const { body, headers } = modernRequest('subscriptions/listen', { notifications: { toolsListChanged: true } });
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body
    });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('notifications/subscriptions/acknowledged');
    await reader.cancel();
  });
});
