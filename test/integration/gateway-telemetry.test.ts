import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FusionApp, proxy } from '../../src';
import { GatewayUpstreamTools } from '../fixtures/gateway-upstream-tools';
import { Recorder, registerContext } from '../helpers/otel';

/** A proxied call is one trace: the gateway's span, and under it the upstream's (its `traceparent` travels in `_meta`). */
describe('telemetry across a gateway', () => {
  let unregister: () => void;
  let recorder: Recorder;
  let upstream: FusionApp;
  let front: FusionApp;
  let url: URL;

  beforeAll(async () => {
    unregister = registerContext();
    recorder = new Recorder();
    const telemetry = { tracerProvider: recorder.tracerProvider, meterProvider: recorder.meterProvider };
    upstream = FusionApp.create({ name: 'upstream', tools: [GatewayUpstreamTools], logger: () => undefined, telemetry });
    const listening = await upstream.listen({ transport: 'http', port: 0, handleSignals: false });
    const gateway = await proxy(listening.url!, { namespace: 'up', logger: () => undefined });
    front = FusionApp.create({ name: 'front', tools: [], gateways: [gateway], logger: () => undefined, telemetry });
    ({ url } = (await front.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL });
  });
  afterAll(async () => {
    await front?.close();
    await upstream?.close();
    await recorder?.close();
    unregister?.();
  });

  it.each(['2026', '2025'] as const)(
    'a %s client: the upstream span of a proxied call is in the gateway span’s trace, under it',
    async (era) => {
      recorder.clear();
      const client = new Client(
        { name: 't', version: '1' },
        { versionNegotiation: { mode: era === '2026' ? { pin: '2026-07-28' } : 'legacy' } }
      );
      await client.connect(new StreamableHTTPClientTransport(url));
      try {
        await client.callTool({ name: 'up.count', arguments: {} });
        const outer = await recorder.named('tools/call up.count');
        const inner = await recorder.named('tools/call count');
        expect(inner.spanContext().traceId).toBe(outer.spanContext().traceId);
        // Under one of the gateway call's spans (its handler's stage span).
        const ancestors = new Set(
          recorder.spans.filter((span) => span.spanContext().traceId === outer.spanContext().traceId).map((s) => s.spanContext().spanId)
        );
        expect(ancestors.has(inner.parentSpanContext!.spanId)).toBe(true);
      } finally {
        await client.close();
      }
    }
  );
});
