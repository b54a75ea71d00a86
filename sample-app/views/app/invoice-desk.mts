/**
 * The invoice desk, the view of `billing.list`: one row per invoice the host delivers, and a
 * Refund button on each paid one. A refund is `billing.refund` called through the host; the
 * server still asks the user to confirm (the host shows the question), and the row says how
 * it ended: refunded, or still paid because the refund was declined or failed.
 */
import type { App } from '@modelcontextprotocol/ext-apps/app-with-deps';
import type { BillingListOutput } from './tool-types.mjs';
import { callTool, element, hostLocale, isRecord, money, openView, textOf } from './view-shell.mjs';

type Invoice = BillingListOutput['items'][number];

/** How long a refund may wait for the user's answer in the host (the App's default request timeout is a minute). */
const REFUND_WAIT_MS = 15 * 60_000;

/** What the server answers a declined refund (billing.tools.ts REFUND_CANCELLED). */
const REFUND_CANCELLED = 'Refund cancelled';

const table = element<HTMLTableElement>('#invoices');
const body = element<HTMLTableSectionElement>('#invoices tbody');
const summary = element<HTMLParagraphElement>('#summary');

/** The listed output, checked: a host delivers what the server sent, which the view does not trust blindly. */
function listingOf(value: unknown): BillingListOutput | undefined {
  if (!isRecord(value) || !Array.isArray(value.items)) return undefined;
  const items = value.items.filter(
    (item): item is Invoice =>
      isRecord(item) && typeof item.id === 'number' && typeof item.status === 'string' && typeof item.amountCents === 'number'
  );
  return { items, total: typeof value.total === 'number' ? value.total : items.length, omitted: Number(value.omitted) || 0 };
}

function statusCell(invoice: Invoice, note?: string): HTMLTableCellElement {
  const cell = document.createElement('td');
  cell.className = `status status-${invoice.status}`;
  cell.textContent = invoice.status;
  if (note) {
    const small = document.createElement('span');
    small.className = 'note';
    small.textContent = note;
    cell.append(small);
  }
  return cell;
}

function render(app: App, invoice: Invoice, row: HTMLTableRowElement, note?: string): void {
  const locale = hostLocale(app);
  const cells = [`#${invoice.id}`, invoice.customerName, money(invoice.amountCents, invoice.currency, locale), invoice.issuedOn].map(
    (text, index) => {
      const cell = document.createElement('td');
      cell.textContent = text;
      if (index === 2) cell.className = 'num';
      return cell;
    }
  );
  const action = document.createElement('td');
  if (invoice.status === 'paid') {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Refund';
    button.setAttribute('aria-label', `Refund invoice ${invoice.id} (${invoice.customerName}, ${cells[2].textContent})`);
    button.addEventListener('click', () => void refund(app, invoice, row, button));
    action.append(button);
  }
  row.replaceChildren(...cells, statusCell(invoice, note), action);
  row.dataset.invoice = String(invoice.id);
}

/** One refund from the desk: the server's question goes to the user through the host; the row shows the outcome. */
async function refund(app: App, invoice: Invoice, row: HTMLTableRowElement, button: HTMLButtonElement): Promise<void> {
  button.disabled = true;
  row.querySelector('.status')?.replaceWith(statusCell(invoice, 'confirm the refund in the host…'));
  let note: string | undefined;
  let next = invoice;
  try {
    const outcome = await callTool(app, 'billing.refund', { id: invoice.id }, { timeout: REFUND_WAIT_MS });
    if (outcome.ok) next = { ...invoice, status: outcome.output.status };
    else note = outcome.message === REFUND_CANCELLED ? 'refund declined: still paid' : `refund failed: ${outcome.message}`;
  } catch (error) {
    note = `refund failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  render(app, next, row, note);
}

function show(app: App, listing: BillingListOutput): void {
  const rows = listing.items.map((invoice) => {
    const row = document.createElement('tr');
    render(app, invoice, row);
    return row;
  });
  body.replaceChildren(...rows);
  table.hidden = false;
  const more = listing.omitted > 0 ? ` (${listing.omitted} more: narrow the filters in the conversation)` : '';
  summary.textContent = `${listing.items.length} of ${listing.total} invoice(s), newest first${more}.`;
}

void openView('invoice-desk', (app) => {
  app.addEventListener('toolinput', () => {
    summary.textContent = 'Loading the invoices…';
  });
  app.addEventListener('toolresult', (result) => {
    const listing = result.isError ? undefined : listingOf(result.structuredContent);
    if (listing) show(app, listing);
    else summary.textContent = `The invoices could not be listed: ${textOf(result) || 'no structured result'}`;
  });
  app.addEventListener('toolcancelled', () => {
    summary.textContent = 'The listing was cancelled.';
  });
}).catch((error: unknown) => {
  summary.textContent = `Could not connect to the host: ${error instanceof Error ? error.message : String(error)}`;
});
