import './views/test-host/dispose-symbols';
import type { FusionApp } from '@mcpfusion/core';
import type SqliteDatabase from 'better-sqlite3';
import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { RunningInspector } from '../packages/cli/src/inspector';
import { ChildServers } from '../test/helpers/child-servers';
import { CHROMIUM_ARGS, CHROMIUM_PATH, describeWithChromium } from '../test/helpers/chromium';
import { startInspectorChild, type InspectorChild } from '../test/helpers/inspector-child';
import { createBillingApp } from './app';
import { aggregates, inspect, invoiceRow, TEST_STATE_KEY, tempDb, writeLockIsFree, type TempDb } from './test-helpers';

/*
 * `mcpfusion inspector` in headless Chromium against the sample app (a child process over HTTP on
 * 127.0.0.1, on a fresh database), in both protocol eras, chosen on the page. The test drives the
 * page only by accessible names, as a person with a screen reader would: the catalog's buttons,
 * the labelled fields of the forms, "Call", the progress bar and "Cancel", the server's question
 * with "Accept" and "Decline", the regions "Result", "View", "Tasks" and "JSON-RPC log". The
 * database file says what really happened. Screenshots: docs/images/inspector-<era>.png.
 */

const ROOT = join(__dirname, '..');
const SAMPLE = join(ROOT, 'build', 'sample-app', 'main.js');
/** Where the screenshots go (build/ is not committed; docs/images/inspector-*.png are copies of them, reduced). */
const SCREENSHOTS = join(ROOT, 'build', 'test-artifacts', 'inspector');
const ERAS = ['2025-11-25', '2026-07-28'] as const;
/** A browser test's budget (a busy machine is slow to render; no assertion is about time). */
const BROWSER_TEST_MS = 120_000;

function paidInvoices(disk: SqliteDatabase.Database): number[] {
  return disk.prepare("SELECT id FROM invoices WHERE status = 'paid' ORDER BY id").pluck().all() as number[];
}

/** Chooses a member in the catalog and fills its form (each field found by its label, the property's name). */
async function fillForm(page: Page, member: string, values: Record<string, string>): Promise<void> {
  await page.getByRole('navigation', { name: 'Server catalog' }).getByRole('button', { name: member, exact: true }).click();
  await page.getByRole('heading', { name: member, exact: true }).waitFor();
  for (const [label, value] of Object.entries(values)) await page.getByLabel(label, { exact: true }).fill(value);
}

/** The call's status line, once it says the call ended one way or another. */
async function callEnded(page: Page, pattern: RegExp): Promise<string> {
  const status = page.getByRole('region', { name: 'Call' }).getByRole('status');
  await status.filter({ hasText: pattern }).waitFor();
  return (await status.textContent()) ?? '';
}

/** Waits for the server's question, checks its message, and answers with `button` (after ticking `confirm` to accept). */
async function answerQuestion(page: Page, button: 'Accept' | 'Decline'): Promise<string> {
  const dialog = page.getByRole('dialog', { name: 'The server asks' });
  await dialog.waitFor();
  const message = (await page.locator('#question-message').textContent()) ?? '';
  if (button === 'Accept') await dialog.getByLabel('confirm', { exact: true }).check();
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  return message;
}

describeWithChromium('mcpfusion inspector in headless Chromium, against the sample app over HTTP', () => {
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  describe.each(ERAS)('the era %s, chosen on the page', (era) => {
    const servers = new ChildServers();
    let db: TempDb;
    let disk: SqliteDatabase.Database;
    let inspector: InspectorChild;
    let page: Page;

    beforeAll(async () => {
      db = tempDb();
      const mcp = await servers.start([SAMPLE], { PORT: '0', BILLING_DB: db.path, FUSION_STATE_KEY: TEST_STATE_KEY }, /listening on (\S+)/);
      disk = inspect(db.path);
      inspector = await startInspectorChild([mcp.href], { BROWSER: 'none' });
      page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
      await page.goto(inspector.url.href);
      await page.getByLabel('Protocol').selectOption(era);
      await page
        .getByRole('status')
        .filter({ hasText: `connected: ${era}` })
        .waitFor();
    }, 60_000);

    afterAll(async () => {
      await page?.close();
      expect(await inspector?.stop()).toBe(0);
      await servers.stopAll();
      disk?.close();
      db?.remove();
    });

    test(
      'lists the tools, prompts and resources by name; the Protocol control offers both eras',
      async () => {
        const catalog = page.getByRole('navigation', { name: 'Server catalog' });
        for (const tool of ['billing.refund', 'billing.list', 'reports.rebuild'])
          await expect(catalog.getByRole('button', { name: tool, exact: true }).count()).resolves.toBe(1);
        expect(await catalog.getByRole('button', { name: 'billing.collections_letter', exact: true }).count()).toBe(1);
        expect(await page.getByLabel('Protocol').locator('option').allTextContents()).toEqual(['2025-11-25', '2026-07-28']);
        expect(await page.getByLabel('Protocol').inputValue()).toBe(era);
        // No dev project behind this inspector: no dev panel.
        expect(await page.getByRole('region', { name: 'Dev project' }).count()).toBe(0);
      },
      BROWSER_TEST_MS
    );

    test(
      "billing.refund: the server's question, accepted: the invoice is refunded once, the result shows the record",
      async () => {
        const [id] = paidInvoices(disk);
        await fillForm(page, 'billing.refund', { id: String(id) });
        await page.getByRole('button', { name: 'Call', exact: true }).click();
        expect(await answerQuestion(page, 'Accept')).toMatch(/^Refund .+ to .+\?$/);
        await callEnded(page, /done in/);
        const result = page.getByRole('region', { name: 'Result' });
        expect(await result.getByLabel('Structured content').textContent()).toContain('"status": "refunded"');
        expect(await result.getByRole('alert').count()).toBe(0);
        expect(invoiceRow(disk, id).status).toBe('refunded');
      },
      BROWSER_TEST_MS
    );

    test(
      'billing.refund: the question declined: isError is called out, nothing is written',
      async () => {
        const [id] = paidInvoices(disk);
        await fillForm(page, 'billing.refund', { id: String(id) });
        await page.getByRole('button', { name: 'Call', exact: true }).click();
        await answerQuestion(page, 'Decline');
        expect(await callEnded(page, /done in/)).toContain('(isError)');
        const result = page.getByRole('region', { name: 'Result' });
        await expect(result.getByRole('alert').textContent()).resolves.toContain('isError');
        expect(invoiceRow(disk, id).status).toBe('paid');
      },
      BROWSER_TEST_MS
    );

    test(
      'reports.rebuild: a rising progress bar with its message, then Cancel: rolled back, and the write lock free for the next mutation',
      async () => {
        const before = aggregates(disk);
        await fillForm(page, 'reports.rebuild', { throttleMs: '1000' });
        // Every value the bar takes, as the page sets it.
        await page.evaluate(() => {
          const bar = document.querySelector('[role="progressbar"]') as HTMLElement & { seen?: number[] };
          bar.seen = [];
          new MutationObserver(() => {
            if (bar.hasAttribute('aria-valuenow')) bar.seen!.push(Number(bar.getAttribute('aria-valuenow')));
          }).observe(bar, { attributes: true, attributeFilter: ['aria-valuenow'] });
        });
        await page.getByRole('button', { name: 'Call', exact: true }).click();
        const call = page.getByRole('region', { name: 'Call' });
        await page.waitForFunction(
          () =>
            ((document.querySelector('[role="progressbar"]') as HTMLElement & { seen?: number[] }).seen ?? []).filter((v) => v > 0)
              .length >= 2
        );
        expect(await call.getByRole('progressbar').getAttribute('aria-valuetext')).toMatch(/month \d+ of \d+/);
        await call.getByRole('button', { name: 'Cancel', exact: true }).click();
        expect(await callEnded(page, /Cancelled/)).toContain('reports.rebuild');
        await expect(page.getByRole('region', { name: 'Result' }).getByRole('alert').textContent()).resolves.toMatch(/^Cancelled/);

        const seen = (
          await page.evaluate(() => (document.querySelector('[role="progressbar"]') as HTMLElement & { seen?: number[] }).seen ?? [])
        ).filter((v) => v > 0);
        for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]);

        // The next mutation (a refund, which waits while a rebuild holds the lock) completes; the table is the
        // one before: the cancellation reached the server, which rolled back and let go of the lock.
        const [id] = paidInvoices(disk);
        await fillForm(page, 'billing.refund', { id: String(id) });
        await page.getByRole('button', { name: 'Call', exact: true }).click();
        await answerQuestion(page, 'Accept');
        await callEnded(page, /done in/);
        expect(invoiceRow(disk, id).status).toBe('refunded');
        expect(aggregates(disk)).toEqual(before);
        expect(writeLockIsFree(disk)).toBe(true);
      },
      BROWSER_TEST_MS
    );

    test(
      "billing.list: the invoice desk view rendered next to the result, in a sandboxed iframe; the session's JSON-RPC log",
      async () => {
        await fillForm(page, 'billing.list', {});
        await page.getByRole('button', { name: 'Call', exact: true }).click();
        await callEnded(page, /done in/);
        const structured = await page.getByRole('region', { name: 'Result' }).getByLabel('Structured content').textContent();
        const items = (JSON.parse(structured ?? '{}') as { items: unknown[] }).items;
        const viewRegion = page.getByRole('region', { name: 'View' });
        const frame = viewRegion.frameLocator('iframe');
        await frame
          .locator('#invoices tbody tr')
          .nth(items.length - 1)
          .waitFor();
        expect(await frame.locator('#invoices tbody tr').count()).toBe(items.length);
        expect(await viewRegion.locator('iframe').getAttribute('sandbox')).toBe('allow-scripts');

        const log = page.getByRole('region', { name: 'JSON-RPC log' });
        expect(await log.getByText(/→ sent/).count()).toBeGreaterThan(0);
        expect(await log.getByText(/← received/).count()).toBeGreaterThan(0);
        expect(await log.getByText('tools/call').count()).toBeGreaterThan(0);
        expect(await log.getByText(era === '2025-11-25' ? 'initialize' : 'server/discover').count()).toBeGreaterThan(0);

        await page.screenshot({ path: join(SCREENSHOTS, `inspector-${era}.png`) });

        // The view's own call (its Refund button) goes through the inspector's connection: the server's
        // question shows in the inspector, and the view's row follows the answer.
        const { id } = (items as Array<{ id: number; status: string }>).find((item) => item.status === 'paid')!;
        await frame.getByRole('button', { name: new RegExp(`^Refund invoice ${id}\\b`) }).click();
        expect(await answerQuestion(page, 'Accept')).toMatch(/^Refund .+\?$/);
        await frame
          .locator(`tr[data-invoice="${id}"] .status`)
          .filter({ hasText: /^refunded$/ })
          .waitFor();
        expect(invoiceRow(disk, id).status).toBe('refunded');
      },
      BROWSER_TEST_MS
    );

    if (era === '2026-07-28') {
      test(
        'reports.rebuild as a task (the tasks extension): the Tasks panel follows it from working to completed, and the result comes',
        async () => {
          await fillForm(page, 'reports.rebuild', { throttleMs: '20' });
          await page.getByLabel('Run as a task').check();
          await page.getByRole('button', { name: 'Call', exact: true }).click();
          const tasks = page.getByRole('region', { name: 'Tasks' });
          await tasks.getByText('working').first().waitFor();
          await callEnded(page, /done in/);
          await expect(tasks.getByRole('listitem').first().textContent()).resolves.toContain('status: completed');
          expect(await page.getByRole('region', { name: 'Result' }).getByLabel('Structured content').textContent()).toContain(
            '"months": 24'
          );
          await page.getByLabel('Run as a task').uncheck();
        },
        BROWSER_TEST_MS
      );

      test(
        'a task cancelled from the Tasks panel (tasks/cancel), then a refund as a task whose question comes through tasks/update',
        async () => {
          const before = aggregates(disk);
          await fillForm(page, 'reports.rebuild', { throttleMs: '1000' });
          await page.getByLabel('Run as a task').check();
          await page.getByRole('button', { name: 'Call', exact: true }).click();
          const tasks = page.getByRole('region', { name: 'Tasks' });
          const running = tasks.getByRole('listitem').filter({ hasText: /month \d+ of \d+/ });
          await running.waitFor();
          await running.getByRole('button', { name: /^Cancel task / }).click();
          expect(await callEnded(page, /Cancelled/)).toContain('reports.rebuild');
          await tasks.getByRole('listitem').first().filter({ hasText: 'status: cancelled' }).waitFor();

          const [id] = paidInvoices(disk);
          await fillForm(page, 'billing.refund', { id: String(id) });
          await page.getByRole('button', { name: 'Call', exact: true }).click();
          expect(await answerQuestion(page, 'Accept')).toMatch(/^Refund .+\?$/);
          await callEnded(page, /done in/);
          await expect(tasks.getByRole('listitem').first().textContent()).resolves.toMatch(/billing\.refund.*status: completed/);
          expect(invoiceRow(disk, id).status).toBe('refunded');
          // The cancelled rebuild rolled back and let go of the lock (the refund, a mutation, ran after it).
          expect(aggregates(disk)).toEqual(before);
          expect(writeLockIsFree(disk)).toBe(true);
          await page.getByLabel('Run as a task').uncheck();
        },
        BROWSER_TEST_MS
      );
    } else {
      test(
        'no task on 2025-11-25: the tasks extension is a 2026-07-28 extension, so neither "Run as a task" nor the Tasks panel shows',
        async () => {
          await fillForm(page, 'reports.rebuild', {});
          expect(await page.getByLabel('Run as a task').isVisible()).toBe(false);
          expect(await page.getByRole('region', { name: 'Tasks' }).count()).toBe(0);
        },
        BROWSER_TEST_MS
      );
    }
  });
});

describeWithChromium('the inspector with dev hooks (what mcpfusion dev gives it): chains, reloads, stage timings', () => {
  let browser: Browser;
  let db: TempDb;
  let app: FusionApp;
  let inspector: RunningInspector;
  const reloads = new EventEmitter();

  beforeAll(async () => {
    db = tempDb();
    app = createBillingApp({ dbPath: db.path, stateKey: TEST_STATE_KEY });
    const { url } = (await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, handleSignals: false })) as { url: URL };
    // The compiled inspector (its page modules are compiled next to it by tsc).
    const { startInspector } = require(
      join(ROOT, 'packages', 'cli', 'dist', 'inspector', 'index.js')
    ) as typeof import('../packages/cli/src/inspector');
    inspector = await startInspector({
      target: { kind: 'http', url },
      devHooks: {
        describeChain: (kind, name) => app.describeChain(name, kind),
        onReload: (listener) => {
          reloads.on('reload', listener);
          return () => reloads.off('reload', listener);
        },
        onCallTimings: (listener) => {
          reloads.on('timings', listener);
          return () => reloads.off('timings', listener);
        }
      }
    });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await inspector?.close();
    await app?.close();
    db?.remove();
    expect(reloads.listenerCount('reload') + reloads.listenerCount('timings')).toBe(0);
  });

  test(
    "the Dev project panel: the chosen member's compiled chain, a failed reload's compiler errors, each call's stage timings",
    async () => {
      const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
      try {
        await page.goto(inspector.url.href);
        await page.getByRole('status').filter({ hasText: 'connected: 2026-07-28' }).waitFor();
        const dev = page.getByRole('region', { name: 'Dev project' });
        await fillForm(page, 'billing.refund', {});
        const chain = dev.getByRole('list', { name: 'Compiled chain' }).getByRole('listitem');
        await chain.first().waitFor();
        expect(await chain.allTextContents()).toEqual([...app.describeChain('billing.refund', 'tool')]);

        reloads.emit('reload', { ok: false, errors: ['src/billing.tools.ts:12: error TS2304: Cannot find name "x".'] });
        await dev.getByRole('status').filter({ hasText: 'src/billing.tools.ts:12' }).waitFor();
        reloads.emit('timings', {
          kind: 'tool',
          name: 'billing.list',
          stages: [
            { stage: 'validate', ms: 0.5 },
            { stage: 'handler', ms: 2 }
          ]
        });
        await dev.getByRole('list', { name: 'Stage timings' }).getByText('tool billing.list: 2.5 ms').waitFor();
        reloads.emit('reload', { ok: true });
        await dev
          .getByRole('status')
          .filter({ hasText: /^reloaded at/ })
          .waitFor();
      } finally {
        await page.close();
      }
    },
    BROWSER_TEST_MS
  );
});
