/** The gateway: another MCP server behind an app (see `proxy`). */
export { Gateway, proxy } from './gateway';
export type { ProxyOptions } from './proxy-options';
export type { UpstreamEra } from './upstream-connection';
export type { UpstreamTarget } from './upstream-target';
