/** A node of a {@link WaiterList}; `remove()` unlinks it in constant time. */
export interface WaiterNode<T> {
  readonly value: T;
  prev: WaiterNode<T> | undefined;
  next: WaiterNode<T> | undefined;
  linked: boolean;
}

/**
 * A FIFO doubly linked list: push at the tail, shift from the head, and remove any
 * node in O(1). An aborted waiter unlinks itself at once, so cancelling thousands of
 * queued calls never scans the queue.
 */
export class WaiterList<T> {
  private head: WaiterNode<T> | undefined;
  private tail: WaiterNode<T> | undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(value: T): WaiterNode<T> {
    const node: WaiterNode<T> = { value, prev: this.tail, next: undefined, linked: true };
    if (this.tail) this.tail.next = node;
    else this.head = node;
    this.tail = node;
    this.count++;
    return node;
  }

  /** The oldest value, left in place. */
  peek(): T | undefined {
    return this.head?.value;
  }

  shift(): T | undefined {
    const node = this.head;
    if (!node) return undefined;
    this.remove(node);
    return node.value;
  }

  remove(node: WaiterNode<T>): void {
    if (!node.linked) return;
    if (node.prev) node.prev.next = node.next;
    else this.head = node.next;
    if (node.next) node.next.prev = node.prev;
    else this.tail = node.prev;
    node.prev = node.next = undefined;
    node.linked = false;
    this.count--;
  }
}
