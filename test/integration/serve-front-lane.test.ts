import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Action, FusionApp, ToolProvider } from '../../src';
import { serveGateway } from '../../src/gateway/serve';

/**
 * `mcpfusion serve` (`serveGateway`) serves a 2025-era session's tool calls on the front fast lane
 * by default; `frontLane: false` (the CLI's `--no-front-lane`) or MCPFUSION_FRONT_LANE=0 turn it
 * off. What the lane took is in the gateway's log when its endpoint closes.
 */
@ToolProvider()
class Pinger {
  @Action('ping', { description: 'Answers pong' })
  ping() {
    return 'pong';
  }
}

async function laneLog(options: { frontLane?: boolean; env?: NodeJS.ProcessEnv }): Promise<string[]> {
  const upstream = FusionApp.create({ name: 'upstream', version: '1.0.0', tools: [Pinger], logger: () => undefined });
  const { url } = await upstream.listen({ transport: 'http', port: 0, handleSignals: false });
  const lines: string[] = [];
  const served = await serveGateway({
    target: url!,
    namespace: 'up',
    port: 0,
    env: options.env ?? {},
    ...(options.frontLane !== undefined ? { frontLane: options.frontLane } : {}),
    log: (line) => lines.push(line)
  });
  const client = new Client({ name: 'front', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  try {
    await client.connect(new StreamableHTTPClientTransport(served.url));
    const result = await client.callTool({ name: 'up.ping', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'pong' }]);
  } finally {
    await client.close();
    await served.app.close();
    await upstream.close();
  }
  return lines.filter((line) => line.includes('front lane'));
}

describe("serve's front fast lane", () => {
  it('is on by default: a 2025-era call is served there', async () => {
    expect(await laneLog({})).toEqual([expect.stringContaining('front lane: 1 calls served')]);
  }, 30_000);

  it('is off with frontLane: false (--no-front-lane) and with MCPFUSION_FRONT_LANE=0', async () => {
    expect(await laneLog({ frontLane: false })).toEqual([]);
    expect(await laneLog({ env: { MCPFUSION_FRONT_LANE: '0' } })).toEqual([]);
  }, 30_000);
});
