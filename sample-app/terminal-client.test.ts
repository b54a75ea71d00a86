import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import { ChildServers } from '../test/helpers/child-servers';
import { describeWithTmux, TmuxTerminal } from '../test/helpers/tmux';
import { createBillingApp } from './app';
import { aggregates, inspect, invoiceRow, TEST_STATE_KEY, tempDb, writeLockIsFree, type TempDb } from './test-helpers';

/**
 * The terminal client `mcpfusion`, end to end: the compiled binary (package.json `bin`, from
 * `npm run compile`) runs in a real pseudo-terminal (tmux) against the sample app, over HTTP
 * in both eras and over --stdio. The test types what a user types (Enter, y, arrow keys,
 * Ctrl-C) and reads the screen; the database file says what really happened.
 */

const ROOT = join(__dirname, '..');
const BIN = join(ROOT, (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin.mcpfusion);
const SAMPLE = join(ROOT, 'build', 'sample-app', 'main.js');

interface Transport {
  readonly name: string;
  /** Starts what the transport needs on the database file; the target words of the command line. */
  start(db: TempDb, servers: ChildServers): Promise<string>;
}

const http = (era: '2025' | '2026'): Transport => ({
  name: `HTTP, --era ${era}`,
  async start(db, servers) {
    const url = await servers.start([SAMPLE], { PORT: '0', BILLING_DB: db.path, FUSION_STATE_KEY: TEST_STATE_KEY }, /listening on (\S+)/);
    return `${url.href} --era ${era}`;
  }
});

const stdio: Transport = {
  name: '--stdio (the server is spawned per call, on the same file)',
  async start(db) {
    // Seeds the file first, as the first spawned server would.
    await createBillingApp({ dbPath: db.path, stateKey: TEST_STATE_KEY }).close();
    return `--stdio 'node ${SAMPLE} --stdio'`;
  }
};

describeWithTmux('mcpfusion in a terminal (tmux) against the sample app', () => {
  describe.each([http('2026'), http('2025'), stdio])('$name', (transport) => {
    const servers = new ChildServers();
    const terminal = new TmuxTerminal(`mcpfusion-cli-${process.pid}-${transport.name.replace(/\W+/g, '')}`, ROOT);
    let db: TempDb;
    let disk: SqliteDatabase.Database;
    let target: string;
    let paidIds: number[];

    beforeAll(async () => {
      db = tempDb();
      target = await transport.start(db, servers);
      disk = inspect(db.path);
      paidIds = disk.prepare("SELECT id FROM invoices WHERE status = 'paid' ORDER BY id").pluck().all() as number[];
    });
    afterAll(async () => {
      terminal.close();
      await servers.stopAll();
      disk?.close();
      db?.remove();
    });
    beforeEach(() => {
      // The server spawned over stdio reads the file and the key from the shell's environment.
      terminal.open({ BILLING_DB: db.path, FUSION_STATE_KEY: TEST_STATE_KEY, NO_COLOR: '1' });
    });

    const call = (words: string): void => terminal.run(`node ${BIN} call ${target} ${words}; echo EXIT=$?`);

    it('report.generate shows the progress bar with the latest message, then the report', async () => {
      call('report.generate --arg year=2025 --arg quarter=2');
      expect(await terminal.exitOf()).toBe(0);
      const screen = terminal.screen();
      expect(screen).toMatch(/█+░* 90% \| charts rendered/);
      expect(screen).toContain('"quarter": 2');
    });

    it('billing.refund asks; answering y refunds the invoice', async () => {
      const id = paidIds.shift()!;
      call(`billing.refund --arg id=${id}`);
      await terminal.waitFor(/Your reply/);
      terminal.keys('Enter');
      await terminal.waitFor(/Approve the refund/);
      terminal.keys('y', 'Enter');
      expect(await terminal.exitOf()).toBe(0);
      expect(terminal.screen()).toContain('"status": "refunded"');
      expect(invoiceRow(disk, id).status).toBe('refunded');
    });

    it('billing.refund declined at the prompt refunds nothing', async () => {
      const id = paidIds.shift()!;
      call(`billing.refund --arg id=${id}`);
      await terminal.waitFor(/Your reply/);
      terminal.keys('Down', 'Enter');
      const exit = await terminal.exitOf();
      expect(terminal.screen()).toContain('Refund cancelled');
      expect(exit).toBe(1);
      expect(invoiceRow(disk, id).status).toBe('paid');
    });

    it('Ctrl-C during reports.rebuild {throttleMs: 300} cancels it (exit 130, table untouched) and the next mutation runs at once', async () => {
      const before = aggregates(disk);
      call('reports.rebuild --json \'{"throttleMs": 300}\'');
      // The bar advances month by month before the user gives up.
      await terminal.waitFor(/\| month 2 of 24/);
      await terminal.waitFor(/\| month 3 of 24/);
      terminal.keys('C-c');
      expect(await terminal.exitOf()).toBe(130);
      expect(terminal.screen()).toMatch(/Cancelled: (the server was sent notifications\/cancelled|the request was aborted)/);
      expect(aggregates(disk)).toEqual(before);

      const id = paidIds.shift()!;
      terminal.open({ BILLING_DB: db.path, FUSION_STATE_KEY: TEST_STATE_KEY, NO_COLOR: '1' });
      call(`billing.refund --arg id=${id} --answer confirm=yes`);
      expect(await terminal.exitOf()).toBe(0);
      expect(invoiceRow(disk, id).status).toBe('refunded');
      // Had the rebuild gone on, it would have committed before the refund got the mutation lock.
      expect(aggregates(disk)).toEqual(before);
      expect(writeLockIsFree(disk)).toBe(true);
    });
  });
});
