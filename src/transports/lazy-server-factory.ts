import type { McpServerFactory } from '@modelcontextprotocol/server';
import type * as ServerFactoryModule from './server-factory';
import type { ServedSurfaces } from './server-factory';

/**
 * `createServerFactory`'s factory, with its module loaded when the first server is built (the first
 * request, or stdio's start) rather than when the app is made: that module extends the SDK's
 * `McpServer`, so loading it loads the SDK server, most of a start's load (src/wire/server-sdk.ts).
 * `surfaces` are asked for then too: the app's telemetry (the OpenTelemetry API) is made with them.
 */
export function lazyServerFactory(surfaces: () => ServedSurfaces): McpServerFactory {
  let factory: McpServerFactory | undefined;
  return (...args) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (above)
    factory ??= (require('./server-factory') as typeof ServerFactoryModule).createServerFactory(surfaces());
    return factory(...args);
  };
}
