/**
 * The `mcpServers` file people already have (Claude Desktop, Cursor, Windsurf: `{ "mcpServers":
 * { name: { command, args, env } | { url, headers } } }`; VS Code: `{ "servers": { name: { type,
 * … } } }`), read as the gateway's upstreams. The file is another party's text: every field is
 * checked, and each problem names the entry and the field.
 */
import { ConfigurationError } from '../../errors';
import type { ResolvedTarget } from '../upstream-target';
import { resolveTarget } from '../upstream-target';
import { readEnvFile } from './env-file';

/** One server entry as the file writes it (after checking). */
export type ServerEntry =
  | {
      /** The program to spawn (no shell). */
      readonly command: string;
      /** Its arguments, each passed as it is (`${VAR}` expanded). */
      readonly args?: readonly string[];
      /** Added to this process's environment. */
      readonly env?: Readonly<Record<string, string>>;
      /** A dotenv file (VS Code's field; relative to the config file's folder) whose variables it gets, under those of `env`. */
      readonly envFile?: string;
      /** The folder it runs in (default: this process's). */
      readonly cwd?: string;
      /** VS Code's `"stdio"`. */
      readonly type?: 'stdio';
      /** Skipped when true (as Cline and others write it). */
      readonly disabled?: boolean;
    }
  | {
      /** A Streamable HTTP endpoint. */
      readonly url: string;
      /** Sent with every request (`Authorization`, …; `${VAR}` expanded). */
      readonly headers?: Readonly<Record<string, string>>;
      /**
       * VS Code's `"http"`; `"sse"` for a server with only the deprecated HTTP+SSE transport (also
       * taken when no type is given and the URL's path ends in `/sse`, as Claude Desktop and Cursor guess).
       */
      readonly type?: 'http' | 'streamable-http' | 'sse';
      /** Skipped when true. */
      readonly disabled?: boolean;
    };

/** The file's shape: `mcpServers` (Claude Desktop, Cursor) or `servers` (VS Code). */
export interface ServersConfig {
  /** The servers by name (Claude Desktop, Cursor, Windsurf); each name is its namespace. */
  readonly mcpServers?: Readonly<Record<string, ServerEntry>>;
  /** VS Code's key for the same (its entries may say `type`). */
  readonly servers?: Readonly<Record<string, ServerEntry>>;
}

/** An upstream of the set, checked: its name in the file, the namespace it is served under, its target. */
export interface ConfiguredServer {
  readonly name: string;
  readonly namespace: string;
  readonly target: ResolvedTarget;
  /** What the entry resolved to, to tell a changed entry on reload. */
  readonly key: string;
}

const MAX_SERVERS = 256;
const MAX_STRING = 16_384;
const ENTRY_FIELDS = new Set(['command', 'args', 'env', 'cwd', 'url', 'headers', 'type', 'disabled', 'envFile', 'description']);

/** Parses a file's text (`where` names it in messages; an `envFile` is read relative to `baseDir`). */
export function parseServersConfig(text: string, where: string, env: NodeJS.ProcessEnv, baseDir = process.cwd()): ConfiguredServer[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigurationError(`${where} is not JSON: ${(error as Error).message}.`);
  }
  return serversFromConfig(value, where, env, baseDir);
}

/**
 * The upstreams a config names, checked and with `${VAR}`, `${VAR:-default}` (and VS Code's
 * `${env:VAR}`) expanded from `env`; an `envFile` is read relative to `baseDir`. All problems are
 * gathered into one ConfigurationError, each naming its entry and field.
 */
export function serversFromConfig(value: unknown, where: string, env: NodeJS.ProcessEnv, baseDir = process.cwd()): ConfiguredServer[] {
  if (!isRecord(value)) throw new ConfigurationError(`${where}: expected an object with "mcpServers" (got ${kindOf(value)}).`);
  const key = 'mcpServers' in value ? 'mcpServers' : 'servers' in value ? 'servers' : undefined;
  if (!key) throw new ConfigurationError(`${where}: no "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code) object.`);
  const entries = value[key];
  if (!isRecord(entries)) throw new ConfigurationError(`${where}: "${key}" must be an object of servers by name (got ${kindOf(entries)}).`);
  const names = Object.keys(entries);
  if (names.length > MAX_SERVERS) throw new ConfigurationError(`${where}: ${names.length} servers; at most ${MAX_SERVERS}.`);
  const problems: string[] = [];
  const out: ConfiguredServer[] = [];
  const byNamespace = new Map<string, string>();
  for (const name of names) {
    const at = `${key}.${JSON.stringify(name)}`;
    const before = problems.length;
    const server = checkEntry(name, entries[name], at, { env, baseDir }, problems);
    if (!server || problems.length > before) continue;
    const other = byNamespace.get(server.namespace);
    if (other !== undefined) {
      problems.push(`${at}: its namespace "${server.namespace}" is also ${JSON.stringify(other)}'s: rename one of them.`);
      continue;
    }
    byNamespace.set(server.namespace, name);
    out.push(server);
  }
  if (problems.length > 0) throw new ConfigurationError(`${where}: ${problems.length} problem(s):\n- ${problems.join('\n- ')}`);
  return out;
}

/**
 * The namespace a server name is served under: the name itself when it is one
 * (`billing`, `server-everything`), else lowercased with every other character a `-`
 * (`GitHub_Tools` → `github-tools`), so that the files people have work as they are.
 */
export function namespaceOf(name: string): string {
  let namespace = name
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (!/^[a-z]/.test(namespace)) namespace = `s-${namespace}`;
  return namespace.slice(0, 64).replace(/-+$/, '');
}

function checkEntry(
  name: string,
  entry: unknown,
  at: string,
  { env, baseDir }: { env: NodeJS.ProcessEnv; baseDir: string },
  problems: string[]
): ConfiguredServer | undefined {
  if (name.length === 0 || name.length > 128) {
    problems.push(`${at}: a server name must have 1 to 128 characters.`);
    return undefined;
  }
  if (!isRecord(entry)) {
    problems.push(`${at}: expected an object ({ command, args, env } or { url, headers }), got ${kindOf(entry)}.`);
    return undefined;
  }
  if (entry.disabled === true) return undefined;
  for (const field of Object.keys(entry))
    if (!ENTRY_FIELDS.has(field)) problems.push(`${at}.${field}: unknown field (expected command, args, env, cwd, url, headers or type).`);
  const expand = (text: unknown, field: string): string | undefined => {
    if (typeof text !== 'string') {
      problems.push(`${at}.${field}: expected a string, got ${kindOf(text)}.`);
      return undefined;
    }
    if (text.length > MAX_STRING) {
      problems.push(`${at}.${field}: longer than ${MAX_STRING} characters.`);
      return undefined;
    }
    return expandVariables(text, env, (problem) => problems.push(`${at}.${field}: ${problem}`));
  };
  const strings = (list: unknown, field: string): string[] => {
    if (list === undefined) return [];
    if (!Array.isArray(list)) {
      problems.push(`${at}.${field}: expected an array of strings, got ${kindOf(list)}.`);
      return [];
    }
    return list.map((item, i) => expand(item, `${field}[${i}]`) ?? '');
  };
  const map = (record: unknown, field: string): Record<string, string> => {
    if (record === undefined) return {};
    if (!isRecord(record)) {
      problems.push(`${at}.${field}: expected an object of strings, got ${kindOf(record)}.`);
      return {};
    }
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(record)) out[k] = expand(v, `${field}.${k}`) ?? '';
    return out;
  };
  const type = entry.type;
  if (type !== undefined && type !== 'stdio' && type !== 'http' && type !== 'streamable-http' && type !== 'sse') {
    problems.push(`${at}.type: ${JSON.stringify(type)} is not a transport (stdio, http, streamable-http, sse).`);
    return undefined;
  }
  const hasCommand = entry.command !== undefined;
  const hasUrl = entry.url !== undefined;
  if (hasCommand === hasUrl) {
    problems.push(`${at}: give either "command" (a program spawned over stdio) or "url" (a Streamable HTTP endpoint).`);
    return undefined;
  }
  if ((type === 'stdio' && !hasCommand) || ((type === 'http' || type === 'streamable-http' || type === 'sse') && !hasUrl)) {
    problems.push(`${at}.type: "${type}" does not match the entry (${hasCommand ? 'command' : 'url'}).`);
    return undefined;
  }
  if (entry.envFile !== undefined && !hasCommand) problems.push(`${at}.envFile: only a stdio entry (command) has an environment.`);
  let target: ResolvedTarget | undefined;
  if (hasCommand) {
    const command = expand(entry.command, 'command');
    if (command === '') problems.push(`${at}.command: empty.`);
    const args = strings(entry.args, 'args');
    const fromFile =
      entry.envFile === undefined
        ? {}
        : (() => {
            const path = expand(entry.envFile, 'envFile');
            return path ? readEnvFile(path, baseDir, (problem) => problems.push(`${at}.envFile: ${problem}`)) : {};
          })();
    const vars = { ...fromFile, ...map(entry.env, 'env') };
    const cwd = entry.cwd === undefined ? undefined : expand(entry.cwd, 'cwd');
    if (command) target = { kind: 'stdio', command, args, ...(Object.keys(vars).length ? { env: vars } : {}), ...(cwd ? { cwd } : {}) };
  } else {
    const url = expand(entry.url, 'url');
    const headers = map(entry.headers, 'headers');
    for (const header of Object.keys(headers))
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header)) problems.push(`${at}.headers: ${JSON.stringify(header)} is not a header name.`);
    if (url !== undefined) {
      try {
        const sse = type === 'sse' || (type === undefined && URL.canParse(url) && /\/sse\/?$/.test(new URL(url).pathname));
        target = resolveTarget({ url, headers, ...(sse ? { transport: 'sse' as const } : {}) });
      } catch (error) {
        problems.push(`${at}.url: ${(error as Error).message.replace(/^proxy\(\): /, '')}`);
      }
    }
  }
  if (!target) return undefined;
  const key = JSON.stringify(target.kind === 'http' ? { ...target, url: target.url.href } : target);
  return { name, namespace: namespaceOf(name), target, key };
}

/**
 * `${VAR}`, `${env:VAR}` and `${VAR:-default}` (the default when VAR is unset or empty, as in a
 * shell) replaced from `env`; an unset one without a default, or another `${…}` form (VS Code's
 * `${input:…}`, `${workspaceFolder}`), is a problem.
 */
export function expandVariables(text: string, env: NodeJS.ProcessEnv, problem: (message: string) => void): string {
  return text.replace(/\$\{([^}]*)\}/g, (whole, inner: string) => {
    const withDefault = /^(.*?):-(.*)$/s.exec(inner);
    const spelled = withDefault ? withDefault[1] : inner;
    const name = spelled.startsWith('env:') ? spelled.slice(4) : spelled;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      problem(`${whole} is not a variable this file may use (write \${NAME}, \${env:NAME} or \${NAME:-default}).`);
      return '';
    }
    const value = env[name];
    if (withDefault && (value === undefined || value === '')) return withDefault[2];
    if (value === undefined) {
      problem(`\${${name}} is not set in the environment.`);
      return '';
    }
    return value;
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}
