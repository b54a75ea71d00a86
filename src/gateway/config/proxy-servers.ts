import { resolve } from 'node:path';
import { ConfigurationError } from '../../errors';
import type { ProxyOptions } from '../proxy-options';
import type { UpstreamSet } from './server-set';
import type { ServersConfig } from './servers-config';

/** Options of {@link proxyServers}: those of `proxy` for every upstream (each gets its name as namespace), and how the set connects. */
export interface ProxyServersOptions extends Omit<ProxyOptions, 'namespace'> {
  /** Where `${VAR}` and `${env:VAR}` in the config are read from. Default: this process's environment. */
  env?: NodeJS.ProcessEnv;
  /** A file source is watched and an edit reloads the set. Default true. */
  watch?: boolean;
  /** An upstream that has not connected and listed in this many milliseconds is down for now (tried again later). Default 10,000. */
  connectTimeoutMs?: number;
  /** The first retry's delay after a failure, doubled at each failure up to `maxRetryMs`. Default 1,000 ms. */
  retryMs?: number;
  /** The longest delay between tries. Default 60,000 ms. */
  maxRetryMs?: number;
}

/**
 * Puts every server of an `mcpServers` config behind an app: the file Claude Desktop, Cursor
 * and Windsurf write (`{ "mcpServers": { name: { command, args, env } | { url, headers } } }`)
 * or VS Code's (`{ "servers": { name: { type, … } } }`), as a path or as a value. Each server is
 * served under its name as namespace (`billing.refund`, `billing+billing://…`; a name that is
 * not a namespace is lowercased, other characters `-`). `${VAR}` in strings is taken from the
 * environment (unset: an error naming it and the entry). Resolves once every upstream has had
 * its first try: one that is down or slow does not hold the others; it is tried again with
 * backoff, its calls fail at once naming it, and `mcpfusion://gateway/health` lists each
 * upstream's state. A file is watched: editing it connects added servers, closes removed ones
 * and replaces changed ones, and front clients are told (`list_changed`).
 *
 * @example
 * ```ts
 * const servers = await proxyServers('~/.cursor/mcp.json');
 * const app = FusionApp.create({ name: 'front', tools: [], gateways: [servers] });
 * ```
 */
export async function proxyServers(config: string | ServersConfig, options: ProxyServersOptions = {}): Promise<UpstreamSet> {
  // Loaded here, as in `proxy`: the SDK's client only for an app that has a gateway.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
  const { ServerSet } = require('./server-set') as typeof import('./server-set');
  const { env = process.env, watch = true, connectTimeoutMs = 10_000, retryMs = 1_000, maxRetryMs = 60_000, ...proxyOptions } = options;
  for (const [name, value] of Object.entries({ connectTimeoutMs, retryMs, maxRetryMs }))
    if (!Number.isFinite(value) || value <= 0)
      throw new ConfigurationError(`proxyServers(): ${name} must be a positive number of milliseconds.`);
  const log = proxyOptions.logger ?? ((message: string) => process.stderr.write(`[mcpfusion gateway] ${message}\n`));
  // `node:os` on use, not at import: the root entry loads this module, and a Worker has no home folder.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
  const home = (): string => (require('node:os') as typeof import('node:os')).homedir();
  const source = typeof config === 'string' ? { file: resolve(config.replace(/^~(?=$|[/\\])/, home)) } : { value: config };
  const set = new ServerSet(source, proxyOptions, { connectTimeoutMs, retryMs, maxRetryMs: Math.max(retryMs, maxRetryMs) }, env, log);
  try {
    await set.start(watch);
  } catch (error) {
    await set.close();
    throw error;
  }
  return set;
}
