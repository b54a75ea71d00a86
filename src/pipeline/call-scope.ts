import type { DependencyContainer } from 'tsyringe';
import type { CallAbort } from '../concurrency/call-abort';
import { CALL_AUTH, CALL_CONTEXT, CALL_SIGNAL } from '../di/tokens';
import type { CallContext } from '../types/context';

/**
 * Where a call's classes are resolved from, and its end: the app's container, or a child
 * container holding the context (CALL_CONTEXT) and the signal (CALL_SIGNAL), made when the
 * member's classes inject them (`perCall`, decided at startup) or when the handler reads
 * `ctx.container`. Disposing it disposes the child's `Disposable` instances (tsyringe `dispose`).
 */
export class CallScope {
  private child: DependencyContainer | undefined;
  ctx: CallContext | undefined;

  constructor(
    private readonly root: DependencyContainer,
    private readonly aborter: CallAbort
  ) {}

  /** The call's child container (made on first use). */
  open(): DependencyContainer {
    if (this.child) return this.child;
    const child = this.root.createChildContainer();
    const aborter = this.aborter;
    child.register(CALL_CONTEXT, { useValue: this.ctx });
    child.register(CALL_SIGNAL, { useFactory: () => aborter.signal });
    const ctx = this.ctx;
    child.register(CALL_AUTH, { useFactory: () => ctx?.auth });
    this.child = child;
    return child;
  }

  /** The call's child container where one exists, else the app's. */
  resolver(): DependencyContainer {
    return this.child ?? this.root;
  }

  dispose(): Promise<void> | void {
    return this.child?.dispose();
  }
}
