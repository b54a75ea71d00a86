import { metadataStorage } from '../metadata/metadata-storage';
import type { ToolOptions } from '../metadata/types';
import { memberDecorator } from './member.decorator';
import { recordMethodTarget } from './member-target';

/**
 * Marks a method as a read-only tool (`readOnlyHint: true`).
 *
 * @example
 * ```ts
 * @Action('billing.invoice', { description: 'Read one invoice with its customer' })
 * invoice(@Input() input: InvoiceQuery) { ... }
 * ```
 */
export function Action(name: string, options: ToolOptions): MethodDecorator {
  return memberDecorator('action', '@Action', name, options);
}

/**
 * Marks a method as a destructive tool (`destructiveHint: true`). Mutations of one app
 * run one at a time, in arrival order, through a FIFO serializer.
 */
export function Mutation(name: string, options: ToolOptions): MethodDecorator {
  return memberDecorator('mutation', '@Mutation', name, options);
}

/** Marks a tool that may ask the user for input mid-call. Combine with `@Action` or `@Mutation`. */
export function Interactive(): MethodDecorator {
  return (target, key, descriptor) => {
    if (!recordMethodTarget('@Interactive', target, key, descriptor)) return;
    metadataStorage.methodRecord(target.constructor, key).interactive = true;
  };
}
