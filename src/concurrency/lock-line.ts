import { WaiterList, type InLine } from './waiter-list';

/** How a line is held: by many at once (`shared`), or by one alone (`exclusive`). */
export type LineMode = 'shared' | 'exclusive';

/** One waiter of a {@link LockLine}: told once, when the line is handed to it; its own node in line. */
export interface LineWaiter extends InLine<LineWaiter> {
  readonly mode: LineMode;
  granted(): void;
}

/**
 * One FIFO line of a readers-writer lock, in process: the unit both the app-wide lock and each
 * key of the keyed lock are made of. Arrival order decides: a shared waiter behind an exclusive
 * one waits for it (writers are not starved by a stream of readers). A release hands the line to
 * the waiter at its head and wakes only that one (or the run of shared waiters at the head, each
 * of which is granted, never retried). An aborted waiter unlinks itself in O(1).
 */
export class LockLine {
  private exclusive = false;
  private shared = 0;
  private readonly waiters = new WaiterList<LineWaiter>();

  /** Nobody holds it and nobody waits: the line can be forgotten. */
  get idle(): boolean {
    return !this.exclusive && this.shared === 0 && this.waiters.size === 0;
  }

  /** Whether someone holds it now. */
  get held(): boolean {
    return this.exclusive || this.shared > 0;
  }

  get waiting(): number {
    return this.waiters.size;
  }

  /** Whether `mode` could be taken now without waiting (nobody in line, nothing in the way). */
  free(mode: LineMode): boolean {
    if (this.waiters.size > 0 || this.exclusive) return false;
    return mode === 'shared' || this.shared === 0;
  }

  /** Takes the line now in `mode`; the caller checked {@link free}. */
  take(mode: LineMode): void {
    if (mode === 'exclusive') this.exclusive = true;
    else this.shared++;
  }

  /** Joins the line; `waiter.granted()` is called when its turn comes. */
  enqueue(waiter: LineWaiter): void {
    this.waiters.push(waiter);
  }

  /** An aborted waiter leaves; the waiters behind it may now be served (an exclusive head that left). */
  leave(waiter: LineWaiter): void {
    if (!waiter.linked) return;
    this.waiters.remove(waiter);
    this.handOff();
  }

  /** Gives back a hold taken in `mode`, and hands the line on. */
  release(mode: LineMode): void {
    if (mode === 'exclusive') this.exclusive = false;
    else this.shared--;
    this.handOff();
  }

  /** Serves the head of the line while it can be served: one exclusive waiter, or the run of shared ones. */
  private handOff(): void {
    for (;;) {
      const head = this.waiters.peek();
      if (!head || this.exclusive) return;
      if (head.mode === 'exclusive') {
        if (this.shared > 0) return;
        this.exclusive = true;
        this.waiters.shift();
        head.granted();
        return;
      }
      this.shared++;
      this.waiters.shift();
      head.granted();
    }
  }
}
