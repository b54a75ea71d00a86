import { InvalidProgressError } from '../errors';
import type { ProgressSend } from '../types/request';
import type { CallTrace } from '../types/telemetry';

/** The brand of a {@link ProgressUpdate} (a registered symbol, so two copies of the framework agree). */
const PROGRESS = Symbol.for('mcpfusion:progress');

/** A progress event, yielded from a generator handler. */
export interface ProgressUpdate {
  /** The brand `isProgressUpdate` looks for. */
  readonly [PROGRESS]: true;
  /**
   * The update as a percentage, 0–100: `progress(percent)`'s own; for an update given as a count
   * (`progress({ progress, total })`), its share of `total` (without a total: the value, within 0–100).
   */
  readonly percent: number;
  /** What is being done, shown with the progress. */
  readonly message?: string;
  /** An update given as a count: the value the notification carries unchanged (absent for a percentage). */
  readonly progress?: number;
  /** An update given as a count: its total, carried unchanged (absent when not known, or for a percentage). */
  readonly total?: number;
}

/** Progress as counted by the handler (or an upstream server): sent as given, `progress` of `total`. */
export interface ProgressCount {
  /** The value so far; must increase over the call (any finite number: the protocol prescribes no unit). */
  readonly progress: number;
  /** The total, when known (finite). */
  readonly total?: number;
  /** What is being done, shown with the progress. */
  readonly message?: string;
}

/**
 * Makes a progress event for `yield` in a generator handler. Two forms:
 * - `progress(percent, message?)`: `percent` is 0–100; the client gets `progress: percent, total: 100`.
 * - `progress({ progress, total?, message? })`: sent as given (`progress: 3, total: 7` reaches
 *   the client as 3 of 7; without `total`, none is sent), for work counted in steps, or progress
 *   relayed from another server.
 *
 * Values must increase: one not above the last one sent is dropped (the protocol requires
 * strictly increasing progress).
 *
 * @example
 * ```ts
 * async *generate(@Input() q: ReportQuery) {
 *   yield progress(30, 'rows loaded');
 *   for (let i = 1; i <= files.length; i++) yield progress({ progress: i, total: files.length, message: files[i - 1] });
 *   return report;
 * }
 * ```
 */
export function progress(percent: number, message?: string): ProgressUpdate;
export function progress(count: ProgressCount): ProgressUpdate;
export function progress(value: number | ProgressCount, message?: string): ProgressUpdate {
  if (typeof value === 'number') return new ProgressMark(value, message, undefined, undefined);
  const { progress: count, total, message: said } = value;
  return new ProgressMark(shareOf(count, total), said, count, total);
}

/** The two forms of {@link progress}: a percentage, or a count sent as given. */
export interface ProgressFunction {
  (percent: number, message?: string): ProgressUpdate;
  (count: ProgressCount): ProgressUpdate;
}

/** A count as a percentage: its share of `total`; without a (positive) total, the value, within 0–100. */
export function shareOf(count: number, total: number | undefined): number {
  const percent = total !== undefined && total > 0 ? (count / total) * 100 : count;
  return percent > 100 ? 100 : percent > 0 ? percent : 0;
}

/**
 * A progress event: a small class, so creating one per yield stays cheap (its fields are
 * assigned once, in one order: one hidden class for both forms); the brand sits on the prototype.
 */
class ProgressMark {
  declare readonly [PROGRESS]: true;
  declare readonly percent: number;
  declare readonly message?: string;
  declare readonly progress?: number;
  declare readonly total?: number;
  constructor(percent: number, message: string | undefined, count: number | undefined, total: number | undefined) {
    (this as { percent: number }).percent = percent;
    (this as { message?: string }).message = message;
    (this as { progress?: number }).progress = count;
    (this as { total?: number }).total = total;
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

/** Checks a count (`progress({ progress, total })`): finite numbers; in production a bad one is dropped, elsewhere it is an error. */
export function checkCount(count: number, total: number | undefined): boolean {
  if (typeof count === 'number' && Number.isFinite(count) && (total === undefined || (typeof total === 'number' && Number.isFinite(total))))
    return true;
  if (process.env.NODE_ENV === 'production') return false;
  throw new InvalidProgressError(count);
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
  private readonly queue: Array<Queued> = [];
  private inFlight: Promise<void> | undefined;
  private closed = false;
  private accepted = 0;
  private sent = 0;

  constructor(private readonly send: ProgressSend) {}

  /** A percentage (0–100): sent as `progress: percent, total: 100`. */
  report(percent: number, message?: string): void {
    if (this.closed || !checkProgress(percent) || percent <= this.last) return;
    this.accept(percent, 100, message);
  }

  /** A count, sent as given (`progress` of `total`; no total when there is none). */
  reportCount(count: number, total: number | undefined, message?: string): void {
    if (this.closed || !checkCount(count, total) || count <= this.last) return;
    this.accept(count, total, message);
  }

  private accept(progress: number, total: number | undefined, message: string | undefined): void {
    this.last = progress;
    const next: Queued = { progress, total, message, place: ++this.accepted };
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
        await this.send(next.progress, next.message, next.total).catch(() => undefined);
        // Past the burst, let the producer run for a turn: what it reports meanwhile coalesces.
        if (++this.sent >= BURST) await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      this.inFlight = undefined;
    }
  }
}

/** A report waiting to be written, with its place among the accepted ones (the burst's are never replaced). */
interface Queued {
  readonly progress: number;
  readonly total: number | undefined;
  readonly message: string | undefined;
  readonly place: number;
}

/**
 * Where a call's progress goes: the request's progress notifications (when it carried a token),
 * and the span's events when the request is traced; both coalesced alike, by the one channel.
 */
export function progressChannelOf(send: ProgressSend | undefined, trace: CallTrace | undefined): ProgressChannel | undefined {
  if (!trace?.recording) return send ? new ProgressChannel(send) : undefined;
  return tracedProgress(send, trace);
}

/** A traced call's progress: the span's events, and the request's notifications when it carried a token. (Apart, so an untraced call allocates no closure scope.) */
function tracedProgress(send: ProgressSend | undefined, trace: CallTrace): ProgressChannel {
  return new ProgressChannel((progress, message, total) => {
    trace.progress(total === 100 ? progress : shareOf(progress, total), message);
    return send ? send(progress, message, total) : DELIVERED;
  });
}

const DELIVERED: Promise<void> = Promise.resolve();
