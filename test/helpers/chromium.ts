import { existsSync } from 'node:fs';

/** What installs the browser the view tests drive (Debian's package; no browser download), named by the tests that skip without it. */
export const CHROMIUM_INSTALL = 'apt-get install -y chromium';

/** The Chromium the browser tests launch through playwright-core: `$CHROMIUM_PATH`, else Debian's /usr/bin/chromium. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Launch arguments for a headless Chromium as root in a container (no sandbox, no GPU). */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu'];

/** Whether the Chromium binary is there. */
export function chromiumInstalled(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/**
 * `describe` where Chromium is installed; elsewhere skipped, by name, saying how to install it
 * (CI installs it and counts a skip as a failure).
 */
export function describeWithChromium(name: string, body: () => void): void {
  if (chromiumInstalled()) describe(name, body);
  else describe.skip(`${name} (skipped: chromium is not installed at ${CHROMIUM_PATH}; install it with: ${CHROMIUM_INSTALL})`, body);
}
