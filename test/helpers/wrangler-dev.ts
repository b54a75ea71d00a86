import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, startTarget, type TargetServer } from './template-project';

/**
 * Running a scratch copy of the workers template under `wrangler dev` (workerd on 127.0.0.1, no
 * account). wrangler is installed apart from the root lockfile (scripts/workerd/).
 */
export const WRANGLER_PACKAGE = join(ROOT, 'scripts', 'workerd', 'node_modules', 'wrangler');
export const WRANGLER_JS = join(WRANGLER_PACKAGE, 'bin', 'wrangler.js');
export const WRANGLER_INSTALL = 'npm ci --prefix scripts/workerd';

/** What `wrangler dev` is started with: 127.0.0.1, any free ports, no prompts. */
export const WRANGLER_DEV_ARGS = [
  'dev',
  '--ip',
  '127.0.0.1',
  '--port',
  '0',
  '--inspector-port',
  '0',
  '--show-interactive-dev-session=false'
];

/** The environment of a wrangler run in `dir`: no metrics, no prompts, its own files in the scratch folder. */
export function wranglerEnv(dir: string): NodeJS.ProcessEnv {
  return { WRANGLER_SEND_METRICS: 'false', CI: 'true', XDG_CONFIG_HOME: join(dir, '.config') };
}

/** Puts wrangler into a scratch copy's node_modules, as the template's devDependency would be. */
export function linkWrangler(dir: string): void {
  symlinkSync(WRANGLER_PACKAGE, join(dir, 'node_modules', 'wrangler'), 'dir');
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  if (!existsSync(join(dir, 'node_modules', '.bin', 'wrangler'))) symlinkSync(WRANGLER_JS, join(dir, 'node_modules', '.bin', 'wrangler'));
}

/**
 * `wrangler dev` in the scratch copy `dir` (its build command runs first), with `--var NAME:value`
 * for each of `vars`, once it prints Ready; rejects naming the output when the Worker failed at import.
 */
export async function startWranglerDev(dir: string, vars: Readonly<Record<string, string>>): Promise<TargetServer> {
  const server = await startTarget({
    command: process.execPath,
    args: [WRANGLER_JS, ...WRANGLER_DEV_ARGS, ...Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`])],
    cwd: dir,
    env: wranglerEnv(dir),
    ready: /Ready on (http:\/\/127\.0\.0\.1:\d+)/
  });
  if (/Uncaught/.test(server.output())) {
    await server.stop();
    throw new Error(`the Worker failed at import:\n${server.output()}`);
  }
  return server;
}
