/** The gateway: another MCP server behind an app (see `proxy`). */
export { proxy } from './proxy';
export type { Gateway } from '../metadata/member-source';
export type { ProxyOptions } from './proxy-options';
export type { UpstreamEra } from './upstream-connection';
export type { UpstreamTarget } from './upstream-target';
