import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FusionApp, proxy } from '../src';
import { BenchProbe, benchApp } from './contenders';
import { interleave, rowOf, tableHead } from './stats';

async function connect(url: URL, era: '2025' | '2026'): Promise<Client> {
  const client = new Client(
    { name: 'bench', version: '1.0.0' },
    { versionNegotiation: { mode: era === '2026' ? { pin: '2026-07-28' } : 'legacy' } }
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

/**
 * What one gateway hop costs: a tool call made directly to an app over HTTP on 127.0.0.1, and
 * the same call made to a gateway app (`proxy()`, over HTTP too) that forwards it to that app,
 * in each era (the gateway speaks its client's era upstream). Sequential calls, all in this
 * process (client, gateway and upstream share one event loop, so the ratio is the work of the
 * extra hop: a second HTTP exchange, the gateway's chain and its SDK client). The progress rows
 * forward 10 notifications each way.
 */
export async function gatewayRows(rounds: number, perRound: number): Promise<string[]> {
  const upstream = benchApp(new BenchProbe());
  const { url } = await upstream.listen({ transport: 'http', port: 0, handleSignals: false });
  const fronts: FusionApp[] = [];
  const frontUrl = async (era: '2025' | '2026'): Promise<URL> => {
    const gateway = await proxy(url!, { era, logger: () => undefined });
    const front = FusionApp.create({ name: 'gateway', version: '1.0.0', tools: [], gateways: [gateway], logger: () => undefined });
    fronts.push(front);
    return (await front.listen({ transport: 'http', port: 0, handleSignals: false })).url!;
  };
  const clients = {
    direct25: await connect(url!, '2025'),
    gateway25: await connect(await frontUrl('2025'), '2025'),
    direct26: await connect(url!, '2026'),
    gateway26: await connect(await frontUrl('2026'), '2026')
  };
  let n = 0;
  const noop = () => undefined;
  const call = (client: Client) => () => client.callTool({ name: 'double', arguments: { n: n++ % 1000 } });
  const stream = (client: Client) => () => client.callTool({ name: 'double.stream', arguments: { n: n++ % 1000 } }, { onprogress: noop });
  const samples = await interleave(rounds, perRound, {
    direct25: call(clients.direct25),
    gateway25: call(clients.gateway25),
    direct26: call(clients.direct26),
    gateway26: call(clients.gateway26),
    direct26Progress: stream(clients.direct26),
    gateway26Progress: stream(clients.gateway26)
  });
  await Promise.all(Object.values(clients).map((client) => client.close()));
  await Promise.all(fronts.map((front) => front.close()));
  await upstream.close();
  return [
    ...tableHead('one gateway hop (HTTP on 127.0.0.1, sequential)'),
    rowOf(samples, '2025-era client → app', 'direct25'),
    rowOf(samples, '2025-era client → gateway → app (2025 upstream)', 'gateway25', 'direct25'),
    rowOf(samples, '2026-07-28 client → app', 'direct26'),
    rowOf(samples, '2026-07-28 client → gateway → app (2026 upstream)', 'gateway26', 'direct26'),
    rowOf(samples, '2026-07-28 → app, 10 progress notifications', 'direct26Progress'),
    rowOf(samples, '2026-07-28 → gateway → app, 10 progress forwarded', 'gateway26Progress', 'direct26Progress')
  ];
}

if (require.main === module) {
  void gatewayRows(Number(process.env.BENCH_ROUNDS ?? 12), Number(process.env.BENCH_GATEWAY_CALLS ?? 200)).then((rows) =>
    process.stdout.write(rows.join('\n') + '\n')
  );
}
