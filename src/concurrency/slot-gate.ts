import { abortError } from './abort';
import { CallAbort, type AbortListener } from './call-abort';
import { WaiterList, type InLine } from './waiter-list';
import { keepWaitAlive, type WaitEnd } from './worker-wait';

/** Gives a slot back. Idempotent: calling it twice releases once. */
export type Release = () => void;

/** A waiter in line: given the slot when its turn comes (its own node in line). */
interface Grantee extends InLine<Grantee> {
  grant(release: Release): void;
}

/**
 * One call waiting in line for a slot: granted it ({@link granted}), or its call was aborted
 * first ({@link refused}: it has left the line already), whichever comes first. A subclass is the
 * whole wait: one object, no closures, no promise of its own (the engine's queued call settles
 * the call's own promise from here).
 */
export abstract class GateWaiter implements AbortListener, Grantee {
  /** Its neighbours in line (set by {@link SlotGate.enqueue}). */
  prev: Grantee | undefined = undefined;
  next: Grantee | undefined = undefined;
  linked = false;
  private list: WaiterList<Grantee> | undefined;
  /** Ends the keep-alive of its wait in a Worker (see `worker-wait.ts`). */
  private waitEnd: WaitEnd | undefined;

  constructor(protected readonly call: CallAbort) {}

  /** Its turn came: it holds `release` now (and must give it back once). */
  protected abstract granted(release: Release): void;

  /** It will not be granted: its call was aborted, or the queue refused it. */
  abstract refused(error: unknown): void;

  /** @internal The gate's side: it stands at `node` of `list`. */
  enter(list: WaiterList<Grantee>): void {
    this.list = list;
    list.push(this);
    this.call.onAbort(this);
    // In a Worker, the slot is freed by another request: this one keeps itself alive meanwhile.
    this.waitEnd = keepWaitAlive();
  }

  grant(release: Release): void {
    this.endWait();
    this.call.offAbort(this);
    this.granted(release);
  }

  onCallAbort(error: Error): void {
    this.endWait();
    this.list?.remove(this);
    this.refused(error);
  }

  private endWait(): void {
    this.waitEnd?.();
    this.waitEnd = undefined;
  }
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
    return new Promise<Release>((resolve, reject) => this.enqueue(new PromiseWaiter(call, resolve, reject)));
  }

  /**
   * Puts `waiter` in line (its call not aborted: the caller checked): it is granted a slot when
   * its turn comes, or refused once its call is aborted.
   */
  enqueue(waiter: GateWaiter): void {
    waiter.enter(this.waiters);
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

/** A wait that settles a promise of the slot (`waitFor`). */
class PromiseWaiter extends GateWaiter {
  constructor(
    call: CallAbort,
    private readonly resolve: (release: Release) => void,
    private readonly reject: (error: unknown) => void
  ) {
    super(call);
  }

  protected granted(release: Release): void {
    this.resolve(release);
  }

  refused(error: unknown): void {
    this.reject(error);
  }
}
