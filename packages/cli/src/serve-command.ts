import { CliError, ExitCode } from './cli-error';
import { parsePort, splitCommandLine } from './command-line';
import { note, type Terminal } from './terminal';
import { tierUp } from './serve-tier-up';

/** `mcpfusion serve …`, as read from the command line. */
export interface ServeCommand {
  readonly command: 'serve';
  /** One upstream (`--stdio`, `--url`), or none with `config`. */
  readonly target?:
    | { readonly url: URL; readonly headers?: Record<string, string>; readonly transport?: 'sse' }
    | { readonly command: string; readonly args: string[] };
  /** `--config <file>`: every server of an `mcpServers` file (Claude Desktop, Cursor, VS Code), each under its name. */
  readonly config?: string;
  readonly port: number;
  readonly namespace?: string;
  readonly era?: '2025' | '2026' | 'auto';
  /** `--max-sessions`: the front's open 2025-era sessions at most. */
  readonly maxSessions?: number;
  /** `--max-sessions-per-caller`: the front's open 2025-era sessions per caller. */
  readonly maxSessionsPerCaller?: number;
  /** `--upstream-sessions`: upstream sessions the gateway holds at once. */
  readonly upstreamSessions?: number;
  /** `--tool-search`: list a search tool and a call tool instead of every tool. */
  readonly toolSearch?: boolean;
  /**
   * `--no-front-lane`: false (serve every call through the SDK server, `serveGateway`'s `frontLane: false`);
   * `--front-lane`: true (the default already). Unset: `serveGateway` decides (on, unless MCPFUSION_FRONT_LANE=0).
   * The lane serves proxied `tools/call`s of 2025-era sessions and of 2026-07-28 requests.
   */
  readonly frontLane?: boolean;
}

/** The usage lines of `serve` (part of `mcpfusion --help`). */
export const SERVE_USAGE = `  mcpfusion serve --stdio '<command line>' | --url <url> [--sse] [--header 'Name: value' …] [--port N] [--namespace ns] [--upstream-era 2025|2026|auto]
                         [--max-sessions N] [--max-sessions-per-caller N] [--upstream-sessions N]
                         [--tool-search] [--no-front-lane]
                         serve that server at http://127.0.0.1:N/mcp (default 3000) for clients of both eras
  mcpfusion serve --config <mcp.json> [--port N] [--upstream-era …] [--max-sessions N] …
                         serve every server of an mcpServers file (Claude Desktop, Cursor, VS Code), each under its name;
                         the file is watched, a down server retried (state at mcpfusion://gateway/health)
                         --tool-search: tools/list shows search_tools and call_tool instead of every tool
                         --no-front-lane (or MCPFUSION_FRONT_LANE=0): serve every call through the SDK server; by default
                         tool calls (2025-era sessions', 2026-07-28 requests') take the front fast lane, without its
                         per-request work (docs/gateway.md)
                         MCPFUSION_TIER_UP=0: leave V8's optimization thresholds at their defaults (by default serve
                         lowers them, so that its per-call code is optimized after fewer calls)`;

/** Reads `serve`'s arguments (after the word `serve`). */
export function parseServe(argv: readonly string[]): ServeCommand {
  let target: ServeCommand['target'] | undefined;
  let config: string | undefined;
  let port = 3000;
  let namespace: string | undefined;
  let era: ServeCommand['era'];
  let sse = false;
  const headers: Record<string, string> = {};
  const counts: {
    maxSessions?: number;
    maxSessionsPerCaller?: number;
    upstreamSessions?: number;
    toolSearch?: boolean;
    frontLane?: boolean;
  } = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new CliError(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case '--stdio': {
        const [command, ...args] = splitCommandLine(value());
        target = { command, args };
        break;
      }
      case '--url': {
        const text = value();
        try {
          target = { url: new URL(text) };
        } catch {
          throw new CliError(`--url: "${text}" is not a URL (http://127.0.0.1:3000/mcp)`);
        }
        break;
      }
      case '--config':
        config = value();
        break;
      case '--sse':
        sse = true;
        break;
      case '--port':
        port = parsePort(flag, value());
        break;
      case '--header': {
        const text = value();
        const colon = text.indexOf(':');
        if (colon <= 0) throw new CliError(`--header must be 'Name: value' (got "${text}")`);
        headers[text.slice(0, colon).trim()] = text.slice(colon + 1).trim();
        break;
      }
      case '--namespace':
        namespace = value();
        break;
      case '--upstream-era': {
        const text = value();
        if (text !== '2025' && text !== '2026' && text !== 'auto')
          throw new CliError(`--upstream-era must be 2025, 2026 or auto (got "${text}")`);
        era = text;
        break;
      }
      case '--tool-search':
        counts.toolSearch = true;
        break;
      case '--front-lane':
        counts.frontLane = true;
        break;
      case '--no-front-lane':
        counts.frontLane = false;
        break;
      case '--max-sessions':
      case '--max-sessions-per-caller':
      case '--upstream-sessions': {
        const text = value();
        const count = Number(text);
        if (!Number.isInteger(count) || count < 1) throw new CliError(`${flag}: "${text}" is not a positive integer`);
        const key =
          flag === '--max-sessions' ? 'maxSessions' : flag === '--upstream-sessions' ? 'upstreamSessions' : 'maxSessionsPerCaller';
        counts[key] = count;
        break;
      }
      default:
        throw new CliError(`serve: unknown option "${flag}" (mcpfusion --help)`);
    }
  }
  if (config !== undefined) {
    if (sse) throw new CliError('serve: with --config, an SSE server says "type": "sse" in the file');
    if (target) throw new CliError('serve: --config names the upstreams; leave out --stdio and --url');
    if (namespace !== undefined) throw new CliError('serve: with --config each server is served under its own name; leave out --namespace');
    if (Object.keys(headers).length > 0)
      throw new CliError('serve: with --config, headers go in the file (its "headers" of each url entry)');
    return { command: 'serve', config, port, ...(era ? { era } : {}), ...counts };
  }
  if (!target) throw new CliError("serve needs an upstream: --stdio '<command line>', --url <url> or --config <mcp.json>");
  if (sse) {
    if (!('url' in target)) throw new CliError('--sse goes with --url (the upstream speaks the deprecated HTTP+SSE transport)');
    target = { ...target, transport: 'sse' };
  }
  if (Object.keys(headers).length > 0) {
    if (!('url' in target)) throw new CliError('--header goes with --url (a stdio upstream has no HTTP headers)');
    target = { ...target, headers };
  }
  return { command: 'serve', target, port, ...(namespace !== undefined ? { namespace } : {}), ...(era ? { era } : {}), ...counts };
}

/**
 * Runs the gateway until SIGINT or SIGTERM. The one command that loads the server library
 * (lazily, so the client commands stay light); like the rest of the CLI, it writes its
 * diagnostics to stderr.
 *
 * Its port is taken first, with `node:http` alone (`@mcpfusion/core/early-listen`), and only then is
 * the framework loaded and the upstream connected: clients can connect from the time of a bare
 * Node start, and a request that comes meanwhile is held and answered once the gateway serves. A
 * port in use still fails at once, and a failure after (the upstream, auth, the library) frees it.
 */
export async function runServe(command: ServeCommand, terminal: Terminal): Promise<number> {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded here, on need: the client commands never load the server library */
  const { listenEarly, servePortOptions } = require('@mcpfusion/core/early-listen') as typeof import('@mcpfusion/core/early-listen');
  let listening;
  try {
    listening = await listenEarly(servePortOptions({ port: command.port }));
  } catch (error) {
    throw new CliError(`serve: ${(error as Error).message}`, ExitCode.PROTOCOL_ERROR);
  }
  let serveGateway: typeof import('@mcpfusion/core/advanced').serveGateway;
  try {
    ({ serveGateway } = require('@mcpfusion/core/advanced') as typeof import('@mcpfusion/core/advanced'));
  } catch (error) {
    await listening.close();
    throw error;
  }
  /* eslint-enable @typescript-eslint/no-require-imports */
  let served;
  try {
    served = await serveGateway({
      ...(command.target ? { target: command.target } : {}),
      ...(command.config !== undefined ? { config: command.config } : {}),
      port: command.port,
      ...(command.namespace !== undefined ? { namespace: command.namespace } : {}),
      ...(command.era ? { era: command.era } : {}),
      ...(command.maxSessions !== undefined || command.maxSessionsPerCaller !== undefined
        ? {
            sessions: {
              ...(command.maxSessions !== undefined ? { maxSessions: command.maxSessions } : {}),
              ...(command.maxSessionsPerCaller !== undefined ? { maxSessionsPerCaller: command.maxSessionsPerCaller } : {})
            }
          }
        : {}),
      ...(command.upstreamSessions !== undefined ? { maxUpstreamSessions: command.upstreamSessions } : {}),
      ...(command.toolSearch ? { toolSearch: true } : {}),
      ...(command.frontLane !== undefined ? { frontLane: command.frontLane } : {}),
      log: (message: string) => note(terminal, `[mcpfusion gateway] ${message}`),
      listening
    });
  } catch (error) {
    throw new CliError(`serve: ${(error as Error).message}`, ExitCode.PROTOCOL_ERROR);
  }
  // Once the gateway serves: its start runs at V8's defaults (lower thresholds there optimized start-up code that runs
  // once, and delayed the first answer), its per-call code is optimized after fewer calls (serve-tier-up.ts).
  tierUp();
  note(terminal, `mcpfusion gateway listening on ${served.url.href} (pid ${process.pid})`);
  await served.closed;
  return ExitCode.OK;
}
