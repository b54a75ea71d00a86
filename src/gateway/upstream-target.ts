import { ConfigurationError } from '../errors';

/** The server a gateway puts behind the app: an MCP endpoint over Streamable HTTP, or a command spawned over stdio. */
export type UpstreamTarget =
  | string
  | URL
  | {
      /** The endpoint's URL (`http://127.0.0.1:3000/mcp`). */
      readonly url: string | URL;
      /** Headers sent with every request (an `Authorization` the upstream expects, say). */
      readonly headers?: Readonly<Record<string, string>>;
      /**
       * `'sse'`: the deprecated HTTP+SSE transport of 2024-11-05 (a GET event stream and a POST
       * endpoint it names), for servers that have no Streamable HTTP endpoint; spoken in the 2025
       * era. Default `'streamable-http'`.
       */
      readonly transport?: 'streamable-http' | 'sse';
    }
  | {
      /** The program to spawn (no shell). */
      readonly command: string;
      /** Its arguments. */
      readonly args?: readonly string[];
      /** Its environment (default: this process's). */
      readonly env?: Readonly<Record<string, string>>;
      /** Its working directory. */
      readonly cwd?: string;
    };

/** A target, checked. */
export type ResolvedTarget =
  | {
      readonly kind: 'http';
      readonly url: URL;
      readonly headers: Readonly<Record<string, string>>;
      /** Over the deprecated HTTP+SSE transport (see {@link UpstreamTarget}). */
      readonly sse?: true;
    }
  | {
      readonly kind: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly env?: Readonly<Record<string, string>>;
      readonly cwd?: string;
    };

/** Checks a target: an http(s) URL (a string, a URL, or `{ url }`), or `{ command, args }`. */
export function resolveTarget(target: UpstreamTarget): ResolvedTarget {
  if (typeof target === 'string' || target instanceof URL) return { kind: 'http', url: httpUrl(target), headers: {} };
  if (target && typeof target === 'object' && 'url' in target) {
    if (target.transport !== undefined && target.transport !== 'sse' && target.transport !== 'streamable-http')
      throw new ConfigurationError(`proxy(): transport must be 'streamable-http' or 'sse' (got ${JSON.stringify(target.transport)}).`);
    return {
      kind: 'http',
      url: httpUrl(target.url),
      headers: { ...target.headers },
      ...(target.transport === 'sse' ? { sse: true as const } : {})
    };
  }
  if (target && typeof target === 'object' && 'command' in target && typeof target.command === 'string' && target.command !== '') {
    return {
      kind: 'stdio',
      command: target.command,
      args: [...(target.args ?? [])],
      ...(target.env ? { env: { ...target.env } } : {}),
      ...(target.cwd ? { cwd: target.cwd } : {})
    };
  }
  throw new ConfigurationError(
    `proxy() needs a target: an http(s) URL ('http://127.0.0.1:3000/mcp') or { command, args } for a server spawned over stdio (got ${JSON.stringify(target)}).`
  );
}

/** How messages name a target: its URL, or its command line. */
export function describeTarget(target: ResolvedTarget): string {
  return target.kind === 'http' ? `${target.url.href}${target.sse ? ' (SSE)' : ''}` : [target.command, ...target.args].join(' ');
}

function httpUrl(value: string | URL): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError(
      `proxy(): ${JSON.stringify(String(value))} is not a URL: give the upstream's endpoint, http://host:port/mcp.`
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigurationError(`proxy(): ${url.href} is not an http(s) URL; for a local program use { command, args }.`);
  return url;
}
