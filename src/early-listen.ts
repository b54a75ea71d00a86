/**
 * `@mcpfusion/core/early-listen`: a port taken before the framework loads. `listenEarly` listens
 * with `node:http` alone and holds the requests that come until a handler is given; `serveGateway`
 * (`@mcpfusion/core/advanced`) serves on it when given it as `listening`. This is how
 * `mcpfusion serve` accepts connections in the time of a bare Node start, then loads the framework,
 * connects its upstreams and answers the held requests. Loads nothing else of the framework (a
 * test checks it).
 *
 * @packageDocumentation
 */
export { listenEarly } from './transports/http/early-server';
export type { EarlyHttpServer, EarlyServerOptions } from './transports/http/early-server';
export { servePortOptions } from './gateway/serve-port';
export type { ServePort } from './gateway/serve-port';
