import type { MiddlewareFn } from '@mcpfusion/core';

/**
 * Calls in flight per desk of the front desk, counted by a step the directory extension puts
 * around every member's chain (`steps.outer`): a tool, prompt or resource of `desk` or `branch`
 * (`desk.billing.refund`, `branch+billing://invoices/3`) counts from the moment its chain starts
 * to its end. Listeners (the directory's listens) are told after each change.
 */
export class DeskActivity {
  private readonly inFlight = new Map<string, number>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly namespaces: readonly string[]) {}

  /** The step: counts the call under its desk's namespace while the rest of the chain runs. */
  readonly step: MiddlewareFn = async (ctx, next) => {
    const namespace = /^([a-z][a-z0-9-]*)[.+]/.exec(ctx.tool.name)?.[1];
    if (namespace === undefined || !this.namespaces.includes(namespace)) return next();
    this.change(namespace, 1);
    try {
      return await next();
    } finally {
      this.change(namespace, -1);
    }
  };

  /** Calls of the desk `namespace` in flight now. */
  count(namespace: string): number {
    return this.inFlight.get(namespace) ?? 0;
  }

  /** Calls `listener` after each change of a count; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private change(namespace: string, by: number): void {
    this.inFlight.set(namespace, this.count(namespace) + by);
    for (const listener of [...this.listeners]) listener();
  }
}
