import './test-host/dispose-symbols';
import type { FusionApp } from '@mcpfusion/core';
import type SqliteDatabase from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Frame, type FrameLocator } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, describeWithChromium } from '../../test/helpers/chromium';
import { createBillingApp } from '../app';
import { aggregates, inspect, invoiceRow, TEST_STATE_KEY, tempDb, writeLockIsFree } from '../test-helpers';
import { openHost, type BrowserHost, type Era } from './test-host/browser-host';

/*
 * The sample's two views in a real browser: headless Chromium (Debian's package, driven by
 * playwright-core) loads a host page built on the ext-apps host bridge, which renders each view
 * in a sandboxed iframe and proxies it to a real SDK client connected to the sample app over
 * HTTP on 127.0.0.1, in both protocol eras. The host plays the user too: it shows the server's
 * questions, which the test answers by clicking. Screenshots: build/test-artifacts/views/.
 */

const ROOT = join(__dirname, '..', '..');
/** Where the screenshots are kept (build/ is not committed). */
export const ARTIFACTS = join(ROOT, 'build', 'test-artifacts', 'views');

/** The sample app over HTTP on 127.0.0.1, on a fresh database, and the test's own connection to the file. */
interface RunningDesk {
  readonly app: FusionApp;
  readonly url: URL;
  readonly disk: SqliteDatabase.Database;
  end(): Promise<void>;
}

async function startDesk(): Promise<RunningDesk> {
  const temp = tempDb();
  const app = createBillingApp({ dbPath: temp.path, stateKey: TEST_STATE_KEY });
  const { url } = (await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, handleSignals: false })) as { url: URL };
  const disk = inspect(temp.path);
  return {
    app,
    url,
    disk,
    async end() {
      try {
        await app.close();
      } finally {
        disk.close();
        temp.remove();
      }
    }
  };
}

/** The views as `npm run compile` builds them (bundled from the current sources; the types as committed). */
function buildViews(): void {
  const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'views', 'build-views.mjs'), '--skip-types'], {
    cwd: ROOT,
    encoding: 'utf8'
  });
  if (run.status !== 0) throw new Error(`building the views failed:\n${run.stderr}`);
}

/** The view's frame (a sandboxed srcdoc iframe: an opaque origin, which Playwright still reaches). */
function viewFrame(host: BrowserHost): Frame {
  const frame = host.page.frames().find((candidate) => candidate !== host.page.mainFrame());
  if (!frame) throw new Error('no view is rendered');
  return frame;
}

interface ListedInvoice {
  id: number;
  status: string;
  customerName: string;
}

function invoicesOf(result: { structuredContent?: unknown }): ListedInvoice[] {
  return (result.structuredContent as { items: ListedInvoice[] }).items;
}

function allInvoices(disk: SqliteDatabase.Database): unknown[] {
  return disk.prepare('SELECT * FROM invoices ORDER BY id').all();
}

function statusOf(frame: FrameLocator, id: number) {
  return frame.locator(`tr[data-invoice="${id}"] .status`);
}

/** Waits for the host's question, checks it, and answers it as the user would (a click). */
async function answerQuestion(host: BrowserHost, choice: 'Approve' | 'Decline'): Promise<string> {
  const dialog = host.page.locator('#question');
  await dialog.waitFor({ state: 'visible' });
  const text = (await host.page.locator('#question-text').textContent()) ?? '';
  await host.page.getByRole('button', { name: choice }).click();
  await dialog.waitFor({ state: 'hidden' });
  return text;
}

const ERAS: readonly Era[] = ['2025', '2026'];

/** A browser test's budget (a busy machine is slow to render; no assertion is about time). */
const BROWSER_TEST_MS = 90_000;

describeWithChromium('the sample views in headless Chromium, through an ext-apps host bridge and a real SDK client over HTTP', () => {
  let browser: Browser;

  beforeAll(async () => {
    buildViews();
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  describe.each(ERAS)('protocol era %s', (era) => {
    let desk: RunningDesk | undefined;
    let host: BrowserHost | undefined;

    beforeEach(async () => {
      desk = await startDesk();
      host = await openHost({ browser, url: desk.url, era });
    }, 60_000);

    afterEach(async () => {
      await host?.close();
      await desk?.end();
      host = undefined;
      desk = undefined;
    });

    test(
      'the invoice desk: ui/initialize, initialized, tool input, then the tool result; a row per invoice, the host theme, its size reported',
      async () => {
        const { frame, result } = await host!.showToolCall('billing.list', {});
        const invoices = invoicesOf(result);
        await frame
          .locator('#invoices tbody tr')
          .nth(invoices.length - 1)
          .waitFor();
        expect(await frame.locator('#invoices tbody tr').count()).toBe(invoices.length);

        const log = (await host!.log()).filter((entry) => entry.method !== 'ui/notifications/size-changed');
        const at = (direction: string, method: string) =>
          log.findIndex((entry) => entry.direction === direction && entry.method === method);
        const order = [
          at('from-view', 'ui/initialize'),
          at('from-view', 'ui/notifications/initialized'),
          at('to-view', 'ui/notifications/tool-input'),
          at('to-view', 'ui/notifications/tool-result')
        ];
        expect(order.every((index) => index >= 0)).toBe(true);
        expect([...order].sort((a, b) => a - b)).toEqual(order);

        // Each paid invoice, and only those, has a Refund button.
        const paid = invoices.filter((invoice) => invoice.status === 'paid');
        expect(paid.length).toBeGreaterThan(0);
        expect(await frame.getByRole('button', { name: /Refund/ }).count()).toBe(paid.length);
        for (const invoice of invoices) {
          expect((await statusOf(frame, invoice.id).textContent())?.trim()).toBe(invoice.status);
        }

        // The host's theme: its variables win over the view's fallbacks.
        const look = await viewFrame(host!).evaluate(() => ({
          background: getComputedStyle(document.body).backgroundColor,
          theme: document.documentElement.dataset.theme
        }));
        expect(look).toEqual({ background: 'rgb(250, 248, 240)', theme: 'light' });

        // ui/notifications/size-changed: the host sized the iframe to the view.
        await host!.page.waitForFunction(() => window.testHost.sizes.some((size) => (size.height ?? 0) > 0));
        const sizes = await host!.sizes();
        const last = sizes[sizes.length - 1];
        expect(await host!.page.locator('#view iframe').evaluate((iframe) => (iframe as HTMLElement).style.height)).toBe(
          `${last.height}px`
        );

        // Under the default CSP the view loads nothing and breaks no rule.
        expect(host!.requests).toEqual([]);
        expect(host!.problems).toEqual([]);
      },
      BROWSER_TEST_MS
    );

    test(
      'a refund approved in the host: the row reads "refunded", the ledger has it exactly once',
      async () => {
        const { frame, result } = await host!.showToolCall('billing.list', {});
        const target = invoicesOf(result).find((invoice) => invoice.status === 'paid')!;
        const refundedBefore = desk!.disk.prepare("SELECT COUNT(*) FROM invoices WHERE status = 'refunded'").pluck().get() as number;

        await frame.getByRole('button', { name: new RegExp(`Refund invoice ${target.id}\\b`) }).click();
        const question = await answerQuestion(host!, 'Approve');
        // The server's own question, about this invoice (the amount as the server formats it).
        expect(question).toMatch(new RegExp(`^Refund .+ to ${target.customerName}\\?$`));

        await statusOf(frame, target.id)
          .filter({ hasText: /^refunded$/ })
          .waitFor();
        expect(await frame.getByRole('button', { name: new RegExp(`Refund invoice ${target.id}\\b`) }).count()).toBe(0);
        const row = invoiceRow(desk!.disk, target.id);
        expect(row.status).toBe('refunded');
        expect(row.refunded_at).toEqual(expect.any(String));
        expect(desk!.disk.prepare("SELECT COUNT(*) FROM invoices WHERE status = 'refunded'").pluck().get()).toBe(refundedBefore + 1);
        expect(host!.calls.filter((name) => name === 'billing.refund')).toHaveLength(1);
        expect(host!.questions).toEqual([question]);

        await host!.page.locator('#view iframe').screenshot({ path: join(ARTIFACTS, `invoice-desk-${era}.png`) });
      },
      BROWSER_TEST_MS
    );

    test(
      'a refund declined in the host: the row says it is still paid, nothing is written',
      async () => {
        const { frame, result } = await host!.showToolCall('billing.list', {});
        const target = invoicesOf(result).find((invoice) => invoice.status === 'paid')!;
        const before = allInvoices(desk!.disk);

        await frame.getByRole('button', { name: new RegExp(`Refund invoice ${target.id}\\b`) }).click();
        await answerQuestion(host!, 'Decline');

        const status = statusOf(frame, target.id);
        await status.filter({ hasText: 'declined' }).waitFor();
        expect(await status.textContent()).toBe('paidrefund declined: still paid');
        expect(allInvoices(desk!.disk)).toEqual(before);
        // Still refundable: the button is back.
        expect(await frame.getByRole('button', { name: new RegExp(`Refund invoice ${target.id}\\b`) }).isEnabled()).toBe(true);

        // The user switches the host to dark: the view follows (ui/notifications/host-context-changed).
        await host!.setTheme('dark');
        await viewFrame(host!).waitForFunction(() => getComputedStyle(document.body).backgroundColor === 'rgb(24, 26, 32)');
        expect(await viewFrame(host!).evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
        await host!.page.locator('#view iframe').screenshot({ path: join(ARTIFACTS, `invoice-desk-declined-dark-${era}.png`) });
      },
      BROWSER_TEST_MS
    );

    test(
      'the rebuild panel: the delivered result, Run with a rising bar, Cancel: rolled back and the lock free for the next mutation',
      async () => {
        const { frame } = await host!.showToolCall('reports.rebuild', {});
        await frame.getByRole('status').filter({ hasText: 'delivered by the host' }).waitFor();
        const before = aggregates(desk!.disk);
        expect(before).toHaveLength(24);

        const view = viewFrame(host!);
        // This view too follows the host's theme and reports its size.
        expect(await view.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(250, 248, 240)');
        await host!.page.waitForFunction(() => window.testHost.sizes.some((size) => (size.height ?? 0) > 0));

        // Every value the bar takes, as the view sets it.
        await view.evaluate(() => {
          const bar = document.getElementById('bar') as HTMLElement & { seen?: number[] };
          bar.seen = [];
          new MutationObserver(() => bar.seen!.push(Number(bar.getAttribute('aria-valuenow')))).observe(bar, {
            attributes: true,
            attributeFilter: ['aria-valuenow']
          });
        });
        await frame.getByLabel('Pause between months (ms)').fill('1000'); // 24 s in all: time to click Cancel midway
        await frame.getByRole('button', { name: /Run/ }).click();
        // Two steps of the server's progress seen (the first is a reset to 0 by Run).
        await view.waitForFunction(
          () => ((document.getElementById('bar') as HTMLElement & { seen?: number[] }).seen ?? []).filter((v) => v > 0).length >= 2
        );
        await frame.getByRole('button', { name: /Cancel/ }).click();
        await frame.getByRole('status').filter({ hasText: 'Cancelled' }).waitFor();

        const seen = (await view.evaluate(() => (document.getElementById('bar') as HTMLElement & { seen?: number[] }).seen ?? [])).filter(
          (v) => v > 0
        );
        expect(seen.length).toBeGreaterThanOrEqual(2);
        for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]);
        expect(seen[seen.length - 1]).toBeLessThan(100);
        expect(host!.calls.filter((name) => name === 'reports.rebuild')).toHaveLength(2);

        // The next mutation (a refund, which waits while a rebuild runs) completes; the table is the one before the
        // cancelled rebuild: the cancellation reached the server, which rolled back and let go of the lock.
        const paid = desk!.disk.prepare("SELECT id FROM invoices WHERE status = 'paid' ORDER BY id LIMIT 1").pluck().get() as number;
        const refund = host!.client.callTool({ name: 'billing.refund', arguments: { id: paid } });
        await answerQuestion(host!, 'Approve');
        expect((await refund).isError).toBeFalsy();
        expect(aggregates(desk!.disk)).toEqual(before);
        expect(writeLockIsFree(desk!.disk)).toBe(true);
        await host!.page.locator('#view iframe').screenshot({ path: join(ARTIFACTS, `rebuild-panel-cancelled-${era}.png`) });

        // And the panel runs the next rebuild to the end.
        await frame.getByLabel('Pause between months (ms)').fill('0');
        await frame.getByRole('button', { name: /Run/ }).click();
        await frame.getByRole('status').filter({ hasText: 'run from this panel' }).waitFor();
        expect(await frame.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
        const after = aggregates(desk!.disk);
        expect(after).toHaveLength(24);
        expect(after[0].rebuilt_at > before[0].rebuilt_at).toBe(true);
        await host!.page.locator('#view iframe').screenshot({ path: join(ARTIFACTS, `rebuild-panel-${era}.png`) });
      },
      BROWSER_TEST_MS
    );

    test(
      'a view calling a model-only tool (account.connect) is refused by the host; the server never sees the call',
      async () => {
        await host!.showToolCall('billing.list', {});
        const answer = await viewFrame(host!).evaluate(
          () =>
            new Promise<{ error?: { code: number; message: string } }>((resolve) => {
              const id = 'visibility-probe';
              addEventListener('message', function listen(event) {
                if (event.source === parent && (event.data as { id?: unknown })?.id === id) {
                  removeEventListener('message', listen);
                  resolve(event.data as { error?: { code: number; message: string } });
                }
              });
              parent.postMessage(
                { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'account.connect', arguments: { provider: 'github' } } },
                '*'
              );
            })
        );
        expect(answer.error).toEqual({ code: -32600, message: expect.stringContaining('account.connect is not callable from a view') });
        expect(host!.calls).not.toContain('account.connect');
        expect(host!.questions).toEqual([]);
        expect(desk!.disk.prepare('SELECT COUNT(*) FROM connected_accounts').pluck().get()).toBe(0);
      },
      BROWSER_TEST_MS
    );
  });
});
