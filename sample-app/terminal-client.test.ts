import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import { ChildServers } from '../test/helpers/child-servers';
import { CLI_BIN } from '../test/helpers/cli-bin';
import { describeWithTmux, TmuxTerminal } from '../test/helpers/tmux';
import { createBillingApp } from './app';
import { aggregates, inspect, invoiceRow, TEST_STATE_KEY, tempDb, writeLockIsFree, type TempDb } from './test-helpers';

/**
 * The terminal client `mcpfusion`, end to end: the compiled binary (package.json `bin`, from
 * `npm run compile`) runs in a real pseudo-terminal (tmux) against the sample app, over HTTP
 * in both eras and over --stdio. The test types what a user types (Enter, y, arrow keys,
 * Ctrl-C) and reads the screen; the database file says what really happened.
 */

// A case here starts the binary (and, over --stdio, the sample app) once or twice: on a loaded machine (a CI run
// beside other work, load average 8) one took over the default 20 s; the waits inside are on what the screen shows.
jest.setTimeout(45_000);

const ROOT = join(__dirname, '..');
const BIN = CLI_BIN;
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
      // The chart reaches the terminal as lines (a text block), not as a JSON string with \n in it.
      expect(screen).toMatch(/^Net per month, Q2 2025:\n2025-04 #*\s+[\d,.-]+\n2025-05 /m);
      expect(screen).not.toContain('\\n2025-05');
    });

    const refundQuestion = (id: number): RegExp => {
      const amount = invoiceRow(disk, id).amount_cents;
      const euros = `€${(amount / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
      return new RegExp(`^\\? Refund ${euros.replace(/[.$]/g, '\\$&')} to .+\\? \\(y/N\\)`, 'm');
    };

    it('billing.refund asks a yes/no in one step; y and Enter refund the invoice', async () => {
      const id = paidIds.shift()!;
      call(`billing.refund --arg id=${id}`);
      await terminal.waitFor(refundQuestion(id));
      expect(terminal.screen()).not.toContain('Your reply');
      terminal.keys('y', 'Enter');
      expect(await terminal.exitOf()).toBe(0);
      expect(terminal.screen()).toMatch(/^✔ Refund €[\d,.]+ to .+\? Yes$/m);
      expect(terminal.screen()).toContain('"status": "refunded"');
      expect(invoiceRow(disk, id).status).toBe('refunded');
    });

    it('an Enter typed before the question does not answer it', async () => {
      const id = paidIds.shift()!;
      call(`billing.refund --arg id=${id}`);
      // Typed at once, while the client is still starting: long before the question is on the screen.
      terminal.keys('Enter');
      await terminal.waitFor(refundQuestion(id));
      terminal.keys('y', 'Enter');
      expect(await terminal.exitOf()).toBe(0);
      expect(invoiceRow(disk, id).status).toBe('refunded');
    });

    it('Enter takes the default (no): the tool says the refund is cancelled, nothing is refunded', async () => {
      const id = paidIds.shift()!;
      call(`billing.refund --arg id=${id}`);
      await terminal.waitFor(refundQuestion(id));
      terminal.keys('Enter');
      const exit = await terminal.exitOf();
      expect(terminal.screen()).toMatch(/^✔ Refund €[\d,.]+ to .+\? No$/m);
      expect(terminal.screen()).toContain('Refund cancelled');
      expect(exit).toBe(1);
      expect(invoiceRow(disk, id).status).toBe('paid');
    });

    it.each([
      ['Escape', 'Escape'],
      ['Ctrl-D', 'C-d']
    ])('%s declines the request: nothing is refunded', async (_name, key) => {
      const id = paidIds.shift()!;
      call(`billing.refund --arg id=${id}`);
      await terminal.waitFor(refundQuestion(id));
      terminal.keys(key);
      const exit = await terminal.exitOf();
      expect(terminal.screen()).toMatch(/^\s*declined$/m);
      expect(terminal.screen()).toContain('Refund cancelled');
      expect(exit).toBe(1);
      expect(invoiceRow(disk, id).status).toBe('paid');
    });

    it('Ctrl-C at the question cancels it and the call (exit 130): nothing is refunded', async () => {
      const id = paidIds.shift()!;
      call(`billing.refund --arg id=${id}`);
      await terminal.waitFor(refundQuestion(id));
      terminal.keys('C-c');
      expect(await terminal.exitOf()).toBe(130);
      expect(invoiceRow(disk, id).status).toBe('paid');
    });

    it('a question that is not one yes/no keeps the reply menu (billing.adjust asks the reason from a list)', async () => {
      const id = paidIds.shift()!;
      call(`billing.adjust --arg id=${id}`);
      await terminal.waitFor(/Your reply/);
      terminal.keys('Down', 'Enter');
      const exit = await terminal.exitOf();
      expect(terminal.screen()).toContain('Adjustment cancelled');
      expect(exit).toBe(1);
    });

    it('Ctrl-C during reports.rebuild {throttleMs: 500} cancels it (exit 130, table untouched) and the next mutation runs at once', async () => {
      const before = aggregates(disk);
      call('reports.rebuild --json \'{"throttleMs": 500}\'');
      // The bar advances month by month before the user gives up: a month, then a later one short of the end (not a
      // given month: on a loaded machine a look at the screen can take longer than one month is shown).
      const first = Number((await terminal.waitFor(/\| month (\d+) of 24/))[1]);
      expect(first).toBeLessThan(20);
      await terminal.waitFor(monthAfter(first));
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

/** The binary without a terminal (pipes, as in a script): answers, exit codes, JSON output. */
describe('mcpfusion without a terminal (a script) against the sample app over HTTP', () => {
  const servers = new ChildServers();
  let db: TempDb;
  let disk: SqliteDatabase.Database;
  let url: string;

  beforeAll(async () => {
    db = tempDb();
    url = (await servers.start([SAMPLE], { PORT: '0', BILLING_DB: db.path, FUSION_STATE_KEY: TEST_STATE_KEY }, /listening on (\S+)/)).href;
    disk = inspect(db.path);
  });
  afterAll(async () => {
    await servers.stopAll();
    disk?.close();
    db?.remove();
  });

  const run = async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'close')) as [number];
    return { code, stdout, stderr };
  };
  const paidInvoice = (): number =>
    disk.prepare("SELECT id FROM invoices WHERE status = 'paid' ORDER BY id DESC LIMIT 1").pluck().get() as number;

  it('a question with no answer is declined, with a note saying how to answer it; nothing is refunded', async () => {
    const id = paidInvoice();
    const { code, stdout, stderr } = await run('call', url, 'billing.refund', '--arg', `id=${id}`);
    expect(stderr).toContain('declined: no terminal to ask the question; answer it with --answer confirm=…');
    expect(stdout.trim()).toBe('Refund cancelled');
    expect(code).toBe(1);
    expect(invoiceRow(disk, id).status).toBe('paid');
  });

  it.each(['2025', '2026'])('--answer confirm=yes answers it (--era %s); --json prints the raw result', async (era) => {
    const id = paidInvoice();
    const { code, stdout } = await run(
      'call',
      url,
      'billing.refund',
      '--era',
      era,
      '--arg',
      `id=${id}`,
      '--answer',
      'confirm=yes',
      '--json'
    );
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ structuredContent: { id, status: 'refunded' }, content: [{ type: 'text' }] });
    expect(invoiceRow(disk, id).status).toBe('refunded');
  });

  it('an argument that does not fit the schema is refused before anything is sent (exit 64)', async () => {
    const { code, stdout, stderr } = await run('call', url, 'billing.refund', '--arg', 'id=0');
    expect(stderr).toContain('billing.refund: argument id: 0 is less than the minimum 1');
    expect(stdout).toBe('');
    expect(code).toBe(64);
  });

  it('progress is one line per notification; list --json gives the tools with their schemas', async () => {
    const report = await run('call', url, 'report.generate', '--arg', 'year=2025', '--arg', 'quarter=2');
    expect(report.code).toBe(0);
    expect(report.stderr).toContain('progress 30% rows loaded\nprogress 60% totals computed\nprogress 90% charts rendered\n');
    const list = await run('list', url, '--json');
    expect(list.code).toBe(0);
    const listing = JSON.parse(list.stdout) as { protocolVersion: string; tools: Array<{ name: string; inputSchema: object }> };
    expect(listing.protocolVersion).toBe('2026-07-28');
    expect(listing.tools.find((t) => t.name === 'billing.refund')?.inputSchema).toMatchObject({ required: ['id'] });
  });

  it('--task: the refund becomes a task; its question is answered (tasks/update) and its result printed', async () => {
    const id = paidInvoice();
    const { code, stdout, stderr } = await run('call', url, 'billing.refund', '--task', '--arg', `id=${id}`, '--answer', 'confirm=yes');
    expect(stderr).toMatch(/^task \S+: input_required/m);
    expect(JSON.parse(stdout)).toMatchObject({ id, status: 'refunded' });
    expect(code).toBe(0);
    expect(invoiceRow(disk, id).status).toBe('refunded');
  });

  it('--task: SIGINT (Ctrl-C without a terminal) sends tasks/cancel; the rebuild rolls back and the next mutation runs', async () => {
    const before = aggregates(disk);
    const child = spawn(process.execPath, [BIN, 'call', url, 'reports.rebuild', '--task', '--arg', 'throttleMs=300'], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe']
    });
    let stderr = '';
    const working = new Promise<void>((resolve) =>
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/: working \(month \d+ of 24\)/.test(stderr)) resolve();
      })
    );
    const closed = once(child, 'close');
    await Promise.race([
      working,
      closed.then(() => {
        throw new Error(`the client ended before the task was working:\n${stderr}`);
      })
    ]);
    child.kill('SIGINT');
    const [code] = (await closed) as [number];
    child.stdout.destroy();
    expect(stderr).toContain('Cancelled: the task was sent tasks/cancel.');
    expect(code).toBe(130);
    const id = paidInvoice();
    expect((await run('call', url, 'billing.refund', '--arg', `id=${id}`, '--answer', 'confirm=yes')).code).toBe(0);
    expect(aggregates(disk)).toEqual(before);
  });

  it('a server that cannot be reached is a protocol error (exit 2)', async () => {
    const { code, stderr } = await run('list', 'http://127.0.0.1:1/mcp');
    expect(stderr).toContain('could not connect to http://127.0.0.1:1/mcp');
    expect(code).toBe(2);
  });
});

/** The progress bar at a month after `month` and before the last (the rebuild not yet done). */
function monthAfter(month: number): RegExp {
  const later = Array.from({ length: 23 - month }, (_, i) => month + 1 + i);
  return new RegExp(`\\| month (${later.join('|')}) of 24\\b`);
}
