import 'reflect-metadata';
import type { ListenOptions } from '../app/app-options';
import { FusionApp } from '../app/fusion-app';
import { authFromEnv } from '../auth/auth-from-env';
import { ConfigurationError } from '../errors';
import type { Gateway } from '../metadata/member-source';
import { EARLY_SERVER, listenEarly, type EarlyHttpServer } from '../transports/http/early-server';
import { proxy } from './proxy';
import type { ProxyOptions } from './proxy-options';
import { proxyServers } from './config/proxy-servers';
import type { ToolSearchSetting } from '../tool-search/tool-search-options';
import type { UpstreamEra } from './upstream-events';
import { describeTarget, resolveTarget, type UpstreamTarget } from './upstream-target';
import { servePortOptions } from './serve-port';

/** What `mcpfusion serve` serves. */
export interface ServeSettings {
  /** One upstream (or give `config`). */
  readonly target?: UpstreamTarget;
  /**
   * An `mcpServers` file (Claude Desktop, Cursor, VS Code): every server in it, each under its
   * name as namespace, the file watched (see `proxyServers`). Instead of `target`.
   */
  readonly config?: string;
  /** The one upstream's namespace (with `target`; a config's servers are under their names). */
  readonly namespace?: string;
  /** The era spoken upstream (`ProxyOptions.era`). */
  readonly era?: UpstreamEra;
  /** The address to listen on (default 127.0.0.1). */
  readonly host?: string;
  /** The port to listen on (0: a free one). */
  readonly port?: number;
  /**
   * A port already taken, to serve on instead of listening on `host` and `port`: `listenEarly`'s
   * (`@mcpfusion/core/early-listen`) with `servePortOptions`, made before this library loaded
   * (`mcpfusion serve` does so). `serveGateway` owns it from then on: it closes it when the start
   * fails and when the app closes.
   */
  readonly listening?: EarlyHttpServer;
  /**
   * The front's 2025-era session limits: open sessions at most (default 1000), and per caller
   * (default 20). Unset, read from MCPFUSION_MAX_SESSIONS and MCPFUSION_MAX_SESSIONS_PER_CALLER.
   */
  readonly sessions?: {
    /** Open sessions at most. */
    readonly maxSessions?: number;
    /** Open sessions of one caller at most. */
    readonly maxSessionsPerCaller?: number;
  };
  /** Upstream sessions the gateway holds at once (`ProxyOptions.maxUpstreamSessions`). Unset: MCPFUSION_UPSTREAM_SESSIONS, else 16. */
  readonly maxUpstreamSessions?: number;
  /**
   * List a search tool and a call tool instead of every proxied tool (the app's `toolSearch`
   * option): for a set of servers whose catalog would fill a model's context.
   */
  readonly toolSearch?: ToolSearchSetting;
  /**
   * Serve front `tools/call`s (a 2025-era session's, a 2026-07-28 request's) on the front fast lane (`HttpHandlerOptions.frontLane`):
   * the call runs through the app's own path without the SDK server's per-request work, where the
   * lane gives the same outcome (resumable streams included; a client that declared elicitation,
   * sampling or roots keeps the normal path). On by default for the gateway; `false` turns it off.
   * Unset: MCPFUSION_FRONT_LANE=0 turns it off.
   */
  readonly frontLane?: boolean;
  /** Where MCP_AUTH_* are read (default: this process's environment). */
  readonly env?: NodeJS.ProcessEnv;
  /** Where the gateway's lines go (default: stderr). */
  readonly log?: (message: string) => void;
}

/** A running gateway endpoint. */
export interface ServedGateway {
  /** The MCP endpoint it serves (`http://127.0.0.1:<port>/mcp`). */
  readonly url: URL;
  /** The gateway app (its `close()` stops it). */
  readonly app: FusionApp;
  /** Resolves once the app has closed (SIGINT, SIGTERM, or `app.close()`). */
  readonly closed: Promise<void>;
}

/**
 * Serves an upstream MCP server (or every server of an `mcpServers` file) behind an HTTP endpoint for both eras (`mcpfusion serve`): a
 * gateway app with no tools of its own, the framework's bounds, queue and telemetry, and
 * authorization from the MCP_AUTH_* variables. Stops on SIGINT/SIGTERM.
 */
export async function serveGateway(settings: ServeSettings): Promise<ServedGateway> {
  try {
    return await startGateway(settings);
  } catch (error) {
    // A port taken for us is ours to free, whatever failed (the settings, auth, the upstream, the app).
    await settings.listening?.close();
    throw error;
  }
}

async function startGateway(settings: ServeSettings): Promise<ServedGateway> {
  if ((settings.target === undefined) === (settings.config === undefined))
    throw new ConfigurationError('serveGateway() needs one upstream (target) or a config file (config), not both.');
  const target = settings.target === undefined ? undefined : resolveTarget(settings.target);
  const env = settings.env ?? process.env;
  // The MCP_AUTH_* variables, read as every server reads them, advertised under the gateway's name.
  const auth = authFromEnv(env, {
    resourceName: target ? `Gateway to ${describeTarget(target)}` : `Gateway to the servers of ${settings.config}`
  });
  const maxSessions = settings.sessions?.maxSessions ?? countFrom(env, 'MCPFUSION_MAX_SESSIONS');
  const maxSessionsPerCaller = settings.sessions?.maxSessionsPerCaller ?? countFrom(env, 'MCPFUSION_MAX_SESSIONS_PER_CALLER');
  const maxUpstream = settings.maxUpstreamSessions ?? countFrom(env, 'MCPFUSION_UPSTREAM_SESSIONS');
  const shared = {
    ...(settings.era ? { era: settings.era } : {}),
    ...(maxUpstream !== undefined ? { maxUpstreamSessions: maxUpstream } : {}),
    ...(settings.log ? { logger: settings.log } : {})
  };
  // Listen first, then connect: the port is taken (and clients can connect) while the upstreams are
  // reached and the app is made; a request that comes meanwhile is held and served once the app is
  // (see early-server.ts). A failure to connect still fails the start, as before: the port is freed.
  const front = settings.listening ?? (await listenEarly(servePortOptions({ host: settings.host, port: settings.port, env })));
  let gateway: Gateway;
  try {
    gateway = await connectGateway(target, settings, shared, env);
  } catch (error) {
    await front.close();
    throw error;
  }
  let ended: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (ended = resolve));
  let app: FusionApp;
  try {
    app = FusionApp.create({
      name: 'mcpfusion-gateway',
      version: '1.0.0',
      tools: [],
      gateways: [gateway],
      ...(settings.toolSearch !== undefined ? { toolSearch: settings.toolSearch } : {}),
      ...(auth ? { auth } : {}),
      ...(settings.log ? { logger: settings.log } : {}),
      onClose: () => ended()
    });
  } catch (error) {
    await Promise.allSettled([gateway.close(), front.close()]);
    throw error;
  }
  const listening = await app
    .listen({
      transport: 'http',
      host: settings.host ?? '127.0.0.1',
      port: front.port,
      frontLane: settings.frontLane ?? env.MCPFUSION_FRONT_LANE !== '0',
      sessions: {
        ...(maxSessions !== undefined ? { maxSessions } : {}),
        ...(maxSessionsPerCaller !== undefined ? { maxSessionsPerCaller } : {})
      },
      [EARLY_SERVER]: front
    } as ListenOptions)
    .catch(async (error: unknown) => {
      await app.close();
      await front.close();
      throw error;
    });
  return { url: listening.url!, app, closed };
}

/** The gateway of one upstream (`proxy`) or of every server of a config file (`proxyServers`), connected and listed. */
function connectGateway(
  target: ReturnType<typeof resolveTarget> | undefined,
  settings: ServeSettings,
  shared: ProxyOptions,
  env: NodeJS.ProcessEnv
): Promise<Gateway> {
  return target
    ? proxy(
        target.kind === 'http'
          ? { url: target.url, headers: target.headers, ...(target.sse ? { transport: 'sse' as const } : {}) }
          : target,
        {
          ...(settings.namespace ? { namespace: settings.namespace } : {}),
          ...shared
        }
      )
    : proxyServers(settings.config!, { ...shared, env });
}

/** A positive integer from the environment variable `name`; unset is undefined, anything else a clear error. */
function countFrom(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new ConfigurationError(`${name} must be a positive integer (got "${text}").`);
  return value;
}
