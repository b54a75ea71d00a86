import { SingleBar } from 'cli-progress';
import { paint, type Terminal } from './terminal';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const SPIN_MS = 100;

/** One progress notification as the call display takes it. */
export interface ProgressUpdate {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/**
 * What the terminal shows while a call runs (on stderr, drawn by `cli-progress`): a spinner
 * until the server reports progress, then a bar with the latest message. The bar's last state
 * stays on screen when the call ends. Questions pause it. On a terminal that is not a TTY it
 * writes one line per progress notification instead.
 */
export class CallDisplay {
  private bar: SingleBar | undefined;
  private mode: 'spinner' | 'bar' | 'off' = 'off';
  private spinTimer: NodeJS.Timeout | undefined;
  private frame = 0;
  private last: ProgressUpdate | undefined;
  private status: string;

  constructor(
    private readonly terminal: Terminal,
    label: string
  ) {
    this.status = label;
  }

  /** Shows the spinner (or, after progress, the bar) again. */
  start(): void {
    if (!this.terminal.err.isTTY) return;
    if (this.last) this.showBar(this.last);
    else this.showSpinner();
  }

  /** A status line without progress (a task's status, say): the spinner's text. */
  setStatus(text: string): void {
    const changed = text !== this.status;
    this.status = text;
    if (!this.terminal.err.isTTY) {
      if (changed) this.terminal.err.write(`${text}\n`);
    } else if (this.mode === 'spinner') this.bar?.update(0, { spinner: SPINNER[this.frame], status: this.status });
  }

  /** A progress notification: the bar moves to it. */
  progress(update: ProgressUpdate): void {
    this.last = update;
    const percent = percentOf(update);
    if (!this.terminal.err.isTTY) {
      this.terminal.err.write(
        `progress ${percent === undefined ? update.progress : `${percent}%`}${update.message ? ` ${update.message}` : ''}\n`
      );
      return;
    }
    if (this.mode === 'off') return; // paused for a question: shown again by start()
    this.showBar(update);
  }

  /** Takes the display off the screen (before a question, or before an error message). */
  pause(): void {
    this.stopBar(true);
  }

  /** Ends the display: a bar stays on screen in its last state, a spinner goes away. */
  finish(): void {
    this.stopBar(this.mode !== 'bar');
  }

  private showSpinner(): void {
    this.stopBar(true);
    this.bar = this.newBar(`{spinner} ${paint(this.terminal, 'dim', '{status}')}`, true);
    this.bar.start(1, 0, { spinner: SPINNER[0], status: this.status });
    this.mode = 'spinner';
    this.spinTimer = setInterval(() => {
      this.frame = (this.frame + 1) % SPINNER.length;
      this.bar?.update(0, { spinner: SPINNER[this.frame], status: this.status });
    }, SPIN_MS);
  }

  private showBar(update: ProgressUpdate): void {
    const total = update.total && update.total > 0 ? update.total : 100;
    const message = update.message ?? '';
    if (this.mode !== 'bar' || !this.bar) {
      this.stopBar(true);
      this.bar = this.newBar(`${paint(this.terminal, 'cyan', '{bar}')} {percentage}% | {message}`, false);
      this.bar.start(total, Math.min(update.progress, total), { message });
      this.mode = 'bar';
      return;
    }
    this.bar.setTotal(total);
    this.bar.update(Math.min(update.progress, total), { message });
  }

  private newBar(format: string, clearOnComplete: boolean): SingleBar {
    return new SingleBar({
      stream: this.terminal.err,
      format,
      barsize: 30,
      hideCursor: true,
      clearOnComplete,
      stopOnComplete: false,
      barCompleteChar: '█',
      barIncompleteChar: '░',
      fps: 20
    });
  }

  private stopBar(clear: boolean): void {
    if (this.spinTimer) clearInterval(this.spinTimer);
    this.spinTimer = undefined;
    if (this.bar) {
      (this.bar as unknown as { options: { clearOnComplete: boolean } }).options.clearOnComplete = clear;
      this.bar.stop();
    }
    this.bar = undefined;
    this.mode = 'off';
  }
}

/** The progress as a whole percentage when a total is known (or the value reads as a percentage, 0–100). */
export function percentOf(update: ProgressUpdate): number | undefined {
  if (update.total && update.total > 0) return Math.floor((Math.min(update.progress, update.total) / update.total) * 100);
  return undefined;
}
