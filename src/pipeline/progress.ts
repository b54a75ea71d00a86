import { InvalidProgressError } from '../errors';
import type { ProgressSend } from '../types/request';

/** The brand of a {@link ProgressUpdate} (a registered symbol, so two copies of the framework agree). */
const PROGRESS = Symbol.for('mcpfusion:progress');

/** A progress event, yielded from a generator handler. */
export interface ProgressUpdate {
  /** The brand `isProgressUpdate` looks for. */
  readonly [PROGRESS]: true;
  /** 0–100, increasing over the call. */
  readonly percent: number;
  /** What is being done, shown with the progress. */
  readonly message?: string;
}

/**
 * Makes a progress event for `yield` in a generator handler. `percent` is 0–100 and
 * must increase: a value not above the last one sent is dropped (the protocol requires
 * strictly increasing progress).
 *
 * @example
 * ```ts
 * async *generate(@Input() q: ReportQuery) {
 *   yield progress(30, 'rows loaded');
 *   return report;
 * }
 * ```
 */
export function progress(percent: number, message?: string): ProgressUpdate {
  return new ProgressMark(percent, message);
}

/**
 * A progress event: a small class, so creating one per yield stays cheap (its fields are
 * assigned once, not defined and then set); the brand sits on the prototype.
 */
class ProgressMark {
  declare readonly [PROGRESS]: true;
  declare readonly percent: number;
  declare readonly message?: string;
  constructor(percent: number, message?: string) {
    (this as { percent: number }).percent = percent;
    (this as { message?: string }).message = message;
  }
}
Object.defineProperty(ProgressMark.prototype, PROGRESS, { value: true });

/** Whether a yielded value is a progress event (anything else yielded is ignored). */
export function isProgressUpdate(value: unknown): value is ProgressUpdate {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[PROGRESS] === true;
}

/** Checks a progress value: in production a bad value is dropped, elsewhere it is an error. */
export function checkProgress(percent: number): boolean {
  if (typeof percent === 'number' && Number.isFinite(percent) && percent >= 0 && percent <= 100) return true;
  if (process.env.NODE_ENV === 'production') return false;
  throw new InvalidProgressError(percent);
}

/** Notifications delivered one for one before coalescing starts. */
const BURST = 16;

/**
 * Delivers progress for one call that carried a progress token. Strictly increasing
 * values only. The first {@link BURST} reports are each delivered, in order (queued while a
 * write is in flight). After that at most one notification per event-loop turn: newer
 * reports coalesce into the latest, so a tight loop of yields cannot flood the client, and
 * the latest state is always delivered. `flush()` resolves when everything reported has
 * been written: the call awaits it before its response, so no progress ever follows it.
 */
export class ProgressChannel {
  private last = -Infinity;
  /** Reports not yet written, each with its place among the accepted ones (the burst's are never replaced). */
  private readonly queue: Array<{ progress: number; message: string | undefined; place: number }> = [];
  private inFlight: Promise<void> | undefined;
  private closed = false;
  private accepted = 0;
  private sent = 0;

  constructor(private readonly send: ProgressSend) {}

  report(percent: number, message?: string): void {
    if (this.closed || !checkProgress(percent) || percent <= this.last) return;
    this.last = percent;
    const next = { progress: percent, message, place: ++this.accepted };
    // Within the burst every report is kept; past it, the newest report not yet written is
    // replaced, unless that one is itself one of the burst (still waiting behind a slow write).
    const tail = this.queue[this.queue.length - 1];
    if (next.place > BURST && tail && tail.place > BURST) this.queue[this.queue.length - 1] = next;
    else this.queue.push(next);
    if (!this.inFlight) this.inFlight = this.pump();
  }

  /** Waits until every accepted report is written, then refuses further reports. */
  async flush(): Promise<void> {
    while (this.inFlight) await this.inFlight;
    this.closed = true;
  }

  /** Drops what has not been written (the call was cancelled: nothing may follow). */
  discard(): void {
    this.closed = true;
    this.queue.length = 0;
  }

  private async pump(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const next = this.queue.shift()!;
        await this.send(next.progress, next.message).catch(() => undefined);
        // Past the burst, let the producer run for a turn: what it reports meanwhile coalesces.
        if (++this.sent >= BURST) await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      this.inFlight = undefined;
    }
  }
}
