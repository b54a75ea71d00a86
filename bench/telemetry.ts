import 'reflect-metadata';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OnDemandReader } from '../test/helpers/otel';
import { BenchProbe, benchApp, connectInMemory } from './contenders';
import { interleave, rowOf, tableHead } from './stats';

/**
 * What telemetry costs a tool call through the SDK's server (in-memory 2025-era client,
 * sequential): built without it (`telemetry: false`: no telemetry code on the path), with it and
 * no provider registered (the default for an app nobody observes: the API's no-ops), and with the
 * OpenTelemetry SDK recording every span in memory and every metric (a reader that is never
 * exported, so the figure is the framework's instrumentation and the SDK's bookkeeping).
 */
export async function telemetryRows(rounds: number, perRound: number): Promise<string[]> {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const meterProvider = new MeterProvider({ readers: [new OnDemandReader()] });
  const off = benchApp(new BenchProbe(), undefined, undefined, undefined, false);
  const idle = benchApp(new BenchProbe());
  const recorded = benchApp(new BenchProbe(), undefined, undefined, undefined, { tracerProvider, meterProvider });
  const clients = {
    off: await connectInMemory(await off.serverFactory({ era: 'legacy' })),
    idle: await connectInMemory(await idle.serverFactory({ era: 'legacy' })),
    recorded: await connectInMemory(await recorded.serverFactory({ era: 'legacy' }))
  };
  let n = 0;
  const samples = await interleave(rounds, perRound, {
    off: () => clients.off.callTool({ name: 'double', arguments: { n: n++ % 1000 } }),
    idle: () => clients.idle.callTool({ name: 'double', arguments: { n: n++ % 1000 } }),
    recorded: () => {
      // The exporter keeps every span: emptied as it goes, so memory stays flat over the run.
      if (n % 1000 === 0) exporter.reset();
      return clients.recorded.callTool({ name: 'double', arguments: { n: n++ % 1000 } });
    }
  });
  await Promise.all(Object.values(clients).map((c) => c.close()));
  await Promise.all([off.close(), idle.close(), recorded.close()]);
  await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
  return [
    ...tableHead('telemetry (in-memory 2025-era client, sequential)', 3),
    rowOf(samples, 'telemetry: false (no telemetry code path)', 'off', undefined, 3),
    rowOf(samples, 'telemetry on, no provider registered (default)', 'idle', 'off', 3),
    rowOf(samples, 'in-memory tracer + meter providers (every span)', 'recorded', 'off', 3)
  ];
}

if (require.main === module) {
  void telemetryRows(Number(process.env.BENCH_ROUNDS ?? 12), Number(process.env.BENCH_CALLS ?? 1000)).then((rows) =>
    process.stdout.write(rows.join('\n') + '\n')
  );
}
