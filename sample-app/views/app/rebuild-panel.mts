/**
 * The rebuild panel, the view of `reports.rebuild`: shows a result the host delivers, and runs
 * a rebuild of its own (`tools/call` from the view with the view's own progress token). The
 * bar follows the server's progress; Cancel aborts the call, which the App sends as the view's
 * `notifications/cancelled` and the host turns into cancelling its own request: the server
 * rolls the transaction back and frees the mutation lock.
 */
import type { App } from '@modelcontextprotocol/ext-apps/app-with-deps';
import type { ReportsRebuildOutput } from './tool-types.mjs';
import { callTool, element, hostLocale, isRecord, openView, textOf } from './view-shell.mjs';

const status = element<HTMLParagraphElement>('#status');
const summary = element<HTMLDListElement>('#summary');
const throttle = element<HTMLInputElement>('#throttle');
const run = element<HTMLButtonElement>('#run');
const cancel = element<HTMLButtonElement>('#cancel');
const bar = element<HTMLDivElement>('#bar');

let running: AbortController | undefined;

/** Moves the bar forward (progress only rises; a lower value is ignored). */
function setBar(percent: number): void {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  if (value <= Number(bar.getAttribute('aria-valuenow'))) return;
  bar.setAttribute('aria-valuenow', String(value));
  (bar.firstElementChild as HTMLElement).style.width = `${value}%`;
}

function resetBar(): void {
  bar.setAttribute('aria-valuenow', '0');
  (bar.firstElementChild as HTMLElement).style.width = '0';
}

function summaryOf(value: unknown): ReportsRebuildOutput | undefined {
  if (!isRecord(value)) return undefined;
  const { months, invoices, rebuiltAt } = value;
  return typeof months === 'number' && typeof invoices === 'number' && typeof rebuiltAt === 'string'
    ? { months, invoices, rebuiltAt }
    : undefined;
}

function showSummary(app: App, result: ReportsRebuildOutput, who: string): void {
  element('#months').textContent = String(result.months);
  element('#invoices').textContent = String(result.invoices);
  element('#rebuilt-at').textContent = new Date(result.rebuiltAt).toLocaleString(hostLocale(app));
  summary.hidden = false;
  setBar(100);
  status.textContent = `Rebuilt ${result.months} month(s) from ${result.invoices} invoice(s) (${who}).`;
}

function setRunning(controller: AbortController | undefined): void {
  running = controller;
  run.disabled = controller !== undefined;
  cancel.disabled = controller === undefined;
}

async function rebuild(app: App): Promise<void> {
  const controller = new AbortController();
  setRunning(controller);
  resetBar();
  status.textContent = 'Rebuilding…';
  const pause = Math.max(0, Math.min(1000, Math.round(Number(throttle.value) || 0)));
  try {
    const outcome = await callTool(app, 'reports.rebuild', pause > 0 ? { throttleMs: pause } : {}, {
      signal: controller.signal,
      resetTimeoutOnProgress: true,
      onprogress: (update) => {
        setBar(update.total ? (update.progress / update.total) * 100 : update.progress);
        if (update.message) status.textContent = `Rebuilding: ${update.message}…`;
      }
    });
    if (outcome.ok) showSummary(app, outcome.output, 'run from this panel');
    else status.textContent = `The rebuild failed: ${outcome.message}`;
  } catch (error) {
    status.textContent = controller.signal.aborted
      ? 'Cancelled: the previous aggregates are unchanged.'
      : `The rebuild failed: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    setRunning(undefined);
  }
}

void openView('rebuild-panel', (app) => {
  app.addEventListener('toolinput', () => {
    status.textContent = 'A rebuild is running…';
  });
  app.addEventListener('toolresult', (result) => {
    const delivered = result.isError ? undefined : summaryOf(result.structuredContent);
    if (delivered) showSummary(app, delivered, 'delivered by the host');
    else status.textContent = `The rebuild failed: ${textOf(result) || 'no structured result'}`;
  });
  app.addEventListener('toolcancelled', () => {
    status.textContent = 'Cancelled: the previous aggregates are unchanged.';
  });
  run.addEventListener('click', () => void rebuild(app));
  cancel.addEventListener('click', () => running?.abort(new Error('Cancelled from the rebuild panel')));
})
  .then(() => {
    if (status.textContent === 'Waiting for the host…') status.textContent = 'No rebuild yet.';
  })
  .catch((error: unknown) => {
    status.textContent = `Could not connect to the host: ${error instanceof Error ? error.message : String(error)}`;
  });
