import type { UpstreamTarget } from '@mcpfusion/core';
import { join } from 'node:path';

/** The SQLite file of the branch desk the front desk spawns when `FRONT_BRANCH` is not set (`BRANCH_DB` overrides it). */
export const DEFAULT_BRANCH_DB = join('.data', 'branch.db');

/**
 * The branch the front desk proxies, from the environment:
 *
 * - `FRONT_BRANCH=http://127.0.0.1:3000/mcp`: an MCP endpoint over Streamable HTTP (either era):
 *   the desk of `npm start`, say, or any other MCP server.
 * - `FRONT_BRANCH='node build/sample-app/main.js --stdio'`: a command line spawned over stdio,
 *   split on spaces (no shell, no quoting: a path with spaces needs the `{ command, args }` form
 *   of `createFrontDesk`). It inherits this process's environment.
 * - unset: a second copy of the desk, `main.js --stdio` beside this file (`build/sample-app`),
 *   on its own SQLite file (`$BRANCH_DB`, default `.data/branch.db`), so that the front desk
 *   runs with no setup at all.
 *
 * @example
 * ```ts
 * branchFromEnv({ FRONT_BRANCH: 'http://127.0.0.1:3000/mcp' }, __dirname); // 'http://127.0.0.1:3000/mcp'
 * branchFromEnv({ FRONT_BRANCH: 'node main.js --stdio' }, __dirname); // { command: 'node', args: ['main.js', '--stdio'] }
 * ```
 */
export function branchFromEnv(env: NodeJS.ProcessEnv, sampleDir: string): UpstreamTarget {
  const text = env.FRONT_BRANCH?.trim();
  if (!text) {
    return {
      command: process.execPath,
      args: [join(sampleDir, 'main.js'), '--stdio'],
      env: { ...definedOnly(env), BILLING_DB: env.BRANCH_DB?.trim() || DEFAULT_BRANCH_DB }
    };
  }
  // A URL is checked by proxy() (an http(s) URL, or a ConfigurationError naming it).
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return text;
  const [command, ...args] = text.split(/\s+/);
  return { command, args };
}

/** The environment without its unset entries (what a spawned process's `env` holds). */
function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
