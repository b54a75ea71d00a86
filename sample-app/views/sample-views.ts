import { view, type ViewOptions } from '@mcpfusion/core';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** The invoice desk, the view of `billing.list`. */
export const INVOICE_DESK_URI = 'ui://billing/invoice-desk';

/** The rebuild panel, the view of `reports.rebuild`. */
export const REBUILD_PANEL_URI = 'ui://reports/rebuild-panel';

/** The repository root: the nearest folder up with a package.json (from sample-app/views, or build/sample-app/views). */
function repositoryRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${from}`);
    dir = up;
  }
  return dir;
}

/** Where scripts/views/build-views.mjs writes the documents. */
export const BUILT_VIEWS = join(repositoryRoot(__dirname), 'build', 'views');

/**
 * A built view's document, read on each `resources/read` (so `npm run compile` or a rebuild of the
 * views is served without a restart). The views are TypeScript (sample-app/views/app) bundled with
 * the ext-apps browser bundle into one document each; a checkout that has not built them yet
 * answers the read with an error that says how (the app itself starts either way).
 */
function builtDocument(name: string): () => Promise<string> {
  const file = join(BUILT_VIEWS, `${name}.html`);
  return async () => {
    try {
      return await readFile(file, 'utf8');
    } catch {
      throw new Error(`The view ${name} is not built (${file} is missing): run npm run compile, or node scripts/views/build-views.mjs`);
    }
  };
}

/** The sample's two views (the app's `views` option). Neither reaches the network: the default CSP. */
export const SAMPLE_VIEWS: readonly ViewOptions[] = [
  view({
    uri: INVOICE_DESK_URI,
    name: 'invoice-desk',
    title: 'Invoice desk',
    description: 'The listed invoices, one row each, with a Refund button on every paid one (the refund still asks to confirm).',
    html: builtDocument('invoice-desk'),
    prefersBorder: true
  }),
  view({
    uri: REBUILD_PANEL_URI,
    name: 'rebuild-panel',
    title: 'Rebuild of the monthly aggregates',
    description: 'The last rebuild, a Run button with a live progress bar, and Cancel (the rebuild rolls back).',
    html: builtDocument('rebuild-panel'),
    prefersBorder: true
  })
];
