import { homedir } from 'node:os';
import { join } from 'node:path';
import { CliError } from './cli-error';

/** The MCP clients `mcpfusion install` writes the configuration of. */
export const CLIENT_NAMES = ['claude-desktop', 'claude-code', 'cursor', 'vscode'] as const;

/** One of {@link CLIENT_NAMES}. */
export type ClientName = (typeof CLIENT_NAMES)[number];

/** The server an entry starts or reaches: a command line (stdio) or a Streamable HTTP endpoint. */
export type ServerSpec =
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[]; readonly env: Readonly<Record<string, string>> }
  | { readonly kind: 'http'; readonly url: string; readonly headers: Readonly<Record<string, string>> };

/** Where the configuration files are looked for: injectable, so tests need not touch the real home folder. */
export interface Place {
  readonly env: NodeJS.ProcessEnv;
  readonly platform: NodeJS.Platform;
  /** The project folder (`.mcp.json`, `.vscode/mcp.json`). */
  readonly cwd: string;
}

/** How one client keeps its MCP servers. */
export interface ClientConfig {
  /** The file this client reads, for the place. */
  file(place: Place): string;
  /** The top-level key that holds the servers by name. */
  readonly key: 'mcpServers' | 'servers';
  /** The entry for the server, in this client's format; throws {@link CliError} for a server it cannot take. */
  entry(server: ServerSpec): Record<string, unknown>;
}

/** The user's home folder: `HOME` (or `USERPROFILE` on Windows) first, so a test's temporary home is honoured. */
function home(place: Place): string {
  return place.env.HOME || place.env.USERPROFILE || homedir();
}

function stdioEntry(server: Extract<ServerSpec, { kind: 'stdio' }>): Record<string, unknown> {
  return { command: server.command, args: [...server.args], ...(Object.keys(server.env).length ? { env: { ...server.env } } : {}) };
}

function headersOf(server: Extract<ServerSpec, { kind: 'http' }>): Record<string, unknown> {
  return Object.keys(server.headers).length ? { headers: { ...server.headers } } : {};
}

/**
 * Each client's file and entry format:
 * - `claude-desktop`: `claude_desktop_config.json` in Claude's folder (macOS `~/Library/Application Support/Claude`,
 *   Windows `%APPDATA%\Claude`, Linux `$XDG_CONFIG_HOME/Claude` or `~/.config/Claude`); stdio entries only, since
 *   the file has no field for a remote server (those are added in the app, Settings → Connectors).
 * - `claude-code`: the project's `.mcp.json`; `{command, args, env}` or `{type: "http", url, headers}`.
 * - `cursor`: `~/.cursor/mcp.json`; `{command, args, env}` or `{url, headers}`.
 * - `vscode`: the project's `.vscode/mcp.json` under `servers`; `{type: "stdio", command, args, env}` or `{type: "http", url, headers}`.
 */
export const CLIENT_CONFIGS: Readonly<Record<ClientName, ClientConfig>> = {
  'claude-desktop': {
    key: 'mcpServers',
    file(place) {
      const folder =
        place.platform === 'darwin'
          ? join(home(place), 'Library', 'Application Support', 'Claude')
          : place.platform === 'win32'
            ? join(place.env.APPDATA || join(home(place), 'AppData', 'Roaming'), 'Claude')
            : join(place.env.XDG_CONFIG_HOME || join(home(place), '.config'), 'Claude');
      return join(folder, 'claude_desktop_config.json');
    },
    entry(server) {
      if (server.kind === 'http')
        throw new CliError(
          "claude-desktop: Claude Desktop's config file takes only servers it starts (--stdio); add a remote server in the app " +
            '(Settings → Connectors), or install it for claude-code, cursor or vscode, which take --url'
        );
      return stdioEntry(server);
    }
  },
  'claude-code': {
    key: 'mcpServers',
    file: (place) => join(place.cwd, '.mcp.json'),
    entry: (server) => (server.kind === 'stdio' ? stdioEntry(server) : { type: 'http', url: server.url, ...headersOf(server) })
  },
  cursor: {
    key: 'mcpServers',
    file: (place) => join(home(place), '.cursor', 'mcp.json'),
    entry: (server) => (server.kind === 'stdio' ? stdioEntry(server) : { url: server.url, ...headersOf(server) })
  },
  vscode: {
    key: 'servers',
    file: (place) => join(place.cwd, '.vscode', 'mcp.json'),
    entry: (server) =>
      server.kind === 'stdio' ? { type: 'stdio', ...stdioEntry(server) } : { type: 'http', url: server.url, ...headersOf(server) }
  }
};
