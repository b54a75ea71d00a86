import type { Gateway } from '../metadata/member-source';
import type { ProxiedServer } from './gateway';
import type { ProxyOptions } from './proxy-options';
import { resolveTarget, type UpstreamTarget } from './upstream-target';

/**
 * Puts another MCP server behind an app: connects to it (an http(s) URL, or a command spawned
 * over stdio), lists what it serves, and returns the `Gateway` to give the app
 * (`FusionApp.create({ tools, gateways: [gateway] })`). Each upstream tool is served as a tool
 * of the app, through the app's chain (scopes, queue, timeouts, middleware, telemetry), with
 * its schemas, title and annotations as listed upstream. Across the gateway, progress is
 * forwarded in order, a front cancellation cancels the upstream call at once, and an upstream
 * question reaches the front client in the front client's own era. A failure to connect is
 * thrown, naming the upstream.
 *
 * @example
 * ```ts
 * const desk = await proxy({ command: 'node', args: ['build/sample-app/main.js', '--stdio'] }, { namespace: 'desk' });
 * const app = FusionApp.create({ name: 'front', tools: [], gateways: [desk] });
 * await app.listen({ transport: 'http', port: 3100 });
 * ```
 */
export async function proxy(target: UpstreamTarget, options: ProxyOptions = {}): Promise<Gateway> {
  // Loaded here, on the first proxy: the gateway brings the SDK's client (~1 MB of modules), which an app
  // without a gateway (most of them) would otherwise load at every start.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
  const { ProxiedServer: Server } = require('./gateway') as { ProxiedServer: typeof ProxiedServer };
  const gateway = new Server(resolveTarget(target), options);
  await gateway.refresh();
  return gateway;
}
