/**
 * What a waiter carries to stand in a {@link WaiterList}: its neighbours in line. The waiter is
 * its own node (no node object per wait), so it stands in one list at a time.
 */
export interface InLine<T> {
  prev: T | undefined;
  next: T | undefined;
  /** Whether it stands in a list now. */
  linked: boolean;
}

/**
 * A FIFO doubly linked list of waiters that are their own nodes: push at the tail, shift from
 * the head, and remove any waiter in O(1). An aborted waiter unlinks itself at once, so
 * cancelling thousands of queued calls never scans the queue.
 */
export class WaiterList<T extends InLine<T>> {
  private head: T | undefined;
  private tail: T | undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(waiter: T): void {
    waiter.prev = this.tail;
    waiter.next = undefined;
    waiter.linked = true;
    if (this.tail) this.tail.next = waiter;
    else this.head = waiter;
    this.tail = waiter;
    this.count++;
  }

  /** Every waiter now, oldest first (a copy: the list may change while it is read). */
  snapshot(): T[] {
    const all: T[] = [];
    for (let waiter = this.head; waiter; waiter = waiter.next) all.push(waiter);
    return all;
  }

  /** The oldest waiter, left in place. */
  peek(): T | undefined {
    return this.head;
  }

  shift(): T | undefined {
    const waiter = this.head;
    if (waiter) this.remove(waiter);
    return waiter;
  }

  /** Unlinks `waiter` (nothing when it stands in no list). */
  remove(waiter: T): void {
    if (!waiter.linked) return;
    if (waiter.prev) waiter.prev.next = waiter.next;
    else this.head = waiter.next;
    if (waiter.next) waiter.next.prev = waiter.prev;
    else this.tail = waiter.prev;
    waiter.prev = waiter.next = undefined;
    waiter.linked = false;
    this.count--;
  }
}
