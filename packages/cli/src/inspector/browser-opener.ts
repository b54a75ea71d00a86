import { spawn } from 'node:child_process';

/** How the page was (or was not) opened, in words for the terminal. */
export type OpenResult = { readonly opened: true; readonly by: string } | { readonly opened: false; readonly why: string };

/**
 * Opens `url` in a browser: the command in `BROWSER` when set (`none` opens nothing, as with
 * other developer tools), else the platform's opener (`open`, `start`, `xdg-open`). Never
 * fails: a missing opener is reported, and the URL is printed by the caller either way.
 */
export function openBrowser(
  url: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform
): Promise<OpenResult> {
  const chosen = env.BROWSER?.trim();
  if (chosen === 'none') return Promise.resolve({ opened: false, why: 'BROWSER=none' });
  const [command, args] = chosen
    ? [chosen, [url]]
    : platform === 'darwin'
      ? ['open', [url]]
      : platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]]
        : ['xdg-open', [url]];
  return new Promise((resolve) => {
    try {
      const child = spawn(command, args, { detached: true, stdio: 'ignore' });
      child.once('error', (error) => resolve({ opened: false, why: `${command}: ${error.message}` }));
      child.once('spawn', () => {
        child.unref();
        resolve({ opened: true, by: command });
      });
    } catch (error) {
      resolve({ opened: false, why: `${command}: ${(error as Error).message}` });
    }
  });
}
