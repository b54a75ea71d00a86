/** The gateway: another MCP server behind an app (see `proxy`). */
export { proxy } from './proxy';
export type { Gateway } from '../metadata/member-source';
export type { ProxyOptions } from './proxy-options';
export type { UpstreamEra } from './upstream-events';
export type { UpstreamTarget } from './upstream-target';
export { proxyServers } from './config/proxy-servers';
export type { ProxyServersOptions } from './config/proxy-servers';
export type { UpstreamSet } from './config/server-set';
export type { UpstreamHealth, UpstreamState } from './config/upstream-slot';
export type { ServerEntry, ServersConfig } from './config/servers-config';
