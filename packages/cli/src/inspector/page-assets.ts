import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, ExitCode } from '../cli-error';
import { PAGE_CSS } from './page-css';
import { pageHtml } from './page-html';

/** A file the inspector serves: its type and bytes. */
export interface Asset {
  readonly type: string;
  readonly body: string;
}

/** The page's modules: page/*.mts compiled by tsc next to this file (packages/cli/dist/inspector/page/*.mjs). */
const PAGE_DIR = join(__dirname, 'page');

/**
 * The inspector's page: its HTML and CSS (TS modules, so they ship in `dist` with the rest) and
 * its browser modules (page/*.mts, compiled to ES modules by the same `tsc`). Read once when the
 * inspector starts; served from memory. Nothing is fetched from elsewhere: the page works offline.
 */
export function loadPageAssets(): ReadonlyMap<string, Asset> {
  let modules: string[];
  try {
    modules = readdirSync(PAGE_DIR).filter((name) => name.endsWith('.mjs'));
  } catch {
    modules = [];
  }
  if (!modules.includes('main.mjs'))
    throw new CliError(`the inspector's page is not built (no ${join(PAGE_DIR, 'main.mjs')}): run npm run build`, ExitCode.PROTOCOL_ERROR);
  const assets = new Map<string, Asset>([
    ['', { type: 'text/html; charset=utf-8', body: pageHtml() }],
    ['assets/inspector.css', { type: 'text/css; charset=utf-8', body: PAGE_CSS }]
  ]);
  for (const name of modules) {
    // The source map comment points at a file not served: dropped.
    const body = readFileSync(join(PAGE_DIR, name), 'utf8').replace(/\n\/\/# sourceMappingURL=.*$/m, '\n');
    assets.set(`assets/${name}`, { type: 'text/javascript; charset=utf-8', body });
  }
  return assets;
}
