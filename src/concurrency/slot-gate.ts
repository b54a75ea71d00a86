import { abortError } from './abort';
import { CallAbort, type AbortListener } from './call-abort';
import { WaiterList, type WaiterNode } from './waiter-list';

/** Gives a slot back. Idempotent: calling it twice releases once. */
export type Release = () => void;

/** A waiter in line: given the slot when its turn comes. */
interface Grantee {
  grant(release: Release): void;
}

/**
 * `capacity` slots and a FIFO of waiters: the one mechanism behind the call queue
 * (capacity = maxActive) and the mutation mutex (capacity = 1). A released slot
 * passes straight to the oldest waiter; an aborted waiter unlinks itself in O(1).
 */
export class SlotGate {
  private used = 0;
  private readonly waiters = new WaiterList<Grantee>();

  constructor(private readonly capacity: number) {}

  get inUse(): number {
    return this.used;
  }

  get waiting(): number {
    return this.waiters.size;
  }

  /** Takes a slot now if one is free; returns undefined otherwise. */
  tryAcquire(): Release | undefined {
    if (this.used >= this.capacity) return undefined;
    this.used++;
    return this.releaser();
  }

  /**
   * Waits in line for a call's slot; the wait ends with the abort error if the call is aborted.
   * Waits on the call's abort directly: no AbortSignal, no event per cancelled waiter.
   */
  waitFor(call: CallAbort): Promise<Release> {
    if (call.aborted) return Promise.reject(call.error());
    return new Promise<Release>((resolve, reject) => {
      const waiter = new CallWaiter(call, this.waiters, resolve, reject);
      waiter.node = this.waiters.push(waiter);
      call.onAbort(waiter);
    });
  }

  /**
   * Waits in line for a slot; the wait ends with the abort reason if `signal` aborts (a call's
   * abort that follows the signal while it waits: see `CallAbort.following`).
   */
  wait(signal: AbortSignal): Promise<Release> {
    if (signal.aborted) return Promise.reject(abortError(signal));
    return this.waitFor(CallAbort.following(signal));
  }

  private releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      // The slot passes straight to the next waiter, so `used` is unchanged.
      if (next) next.grant(this.releaser());
      else this.used--;
    };
  }
}

/** One call waiting for a slot: granted a slot, or aborted (and unlinked), whichever is first. One object, no closures. */
class CallWaiter implements AbortListener, Grantee {
  node: WaiterNode<Grantee> | undefined;

  constructor(
    private readonly call: CallAbort,
    private readonly list: WaiterList<Grantee>,
    private readonly resolve: (release: Release) => void,
    private readonly reject: (error: Error) => void
  ) {}

  grant(release: Release): void {
    this.call.offAbort(this);
    this.resolve(release);
  }

  onCallAbort(error: Error): void {
    if (this.node) this.list.remove(this.node);
    this.reject(error);
  }
}
