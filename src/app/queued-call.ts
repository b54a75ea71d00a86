import type { CallAbort } from '../concurrency/call-abort';
import { GateWaiter, type Release } from '../concurrency/slot-gate';
import type { CompiledMember } from '../pipeline/call-state';
import type { CallIdentity } from '../pipeline/error-boundary';
import type { CallRequest } from '../types/request';

/** What a caller makes of a call's answer (see `CallEngine.run`). */
export type Then = (answer: unknown) => unknown;

/** What a queued call asks of the engine when its wait ends (`CallEngine`). */
export interface QueueSide {
  /** Granted its slot: the call's state is made and its chain runs. */
  enterAdmitted(call: QueuedCall, release: Release): void;
  /** Refused its slot: the call ends, answered as the error boundary says (thrown: a JSON-RPC error). */
  refusedInLine(call: QueuedCall, error: unknown): unknown;
}

/** The resolvers the last `new Promise(captureResolvers)` was given (read at once, in the same synchronous step). */
const captured: { resolve?: (value: unknown) => void; reject?: (error: unknown) => void } = {};

function captureResolvers(resolve: (value: unknown) => void, reject: (error: unknown) => void): void {
  captured.resolve = resolve;
  captured.reject = reject;
}

/**
 * A call waiting in the queue before its chain (see `Admission`): only what the call needs to
 * start later (its member, request and abort) and its promise. Granted its slot, its state is
 * made and its chain runs on the next microtask; refused (aborted in line, or the queue is full),
 * it ends at once, answered as the error boundary says, and settles the call's promise from here.
 */
export class QueuedCall extends GateWaiter implements CallIdentity {
  /** The call's answer (what `CallEngine.run` returns). */
  readonly answer: Promise<unknown>;
  resolve!: (value: unknown) => void;
  reject!: (error: unknown) => void;

  constructor(
    private readonly engine: QueueSide,
    readonly member: CompiledMember,
    readonly request: CallRequest,
    readonly aborter: CallAbort,
    readonly then: Then
  ) {
    super(aborter);
    // A shared executor, not a closure (thousands of calls may wait in line): it hands out the resolvers it was given.
    this.answer = new Promise(captureResolvers);
    this.resolve = captured.resolve!;
    this.reject = captured.reject!;
  }

  get requestId(): string | number | undefined {
    return this.request.requestId;
  }

  get taskId(): string | undefined {
    return this.request.task?.taskId;
  }

  protected granted(release: Release): void {
    queueMicrotask(() => this.engine.enterAdmitted(this, release));
  }

  refused(error: unknown): void {
    // Called from the abort's dispatch: nothing may throw back into it.
    try {
      this.resolve(this.then(this.engine.refusedInLine(this, error)));
    } catch (protocolError) {
      this.reject(protocolError);
    }
  }
}
