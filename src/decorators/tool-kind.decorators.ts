import { metadataStorage } from '../metadata/metadata-storage';
import type { ToolKind, ToolOptions } from '../metadata/types';
import { recordMethodTarget } from './member-target';

function kindDecorator(kind: ToolKind, decorator: string, name: string, options: ToolOptions): MethodDecorator {
  return (target, key, descriptor) => {
    if (!recordMethodTarget(decorator, target, key, descriptor)) return;
    metadataStorage.methodRecord(target.constructor, key).kinds.push({ kind, name, options });
  };
}

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
  return kindDecorator('action', '@Action', name, options);
}

/**
 * Marks a method as a destructive tool (`destructiveHint: true`). Mutations of one app
 * run one at a time, in arrival order, through a FIFO serializer.
 */
export function Mutation(name: string, options: ToolOptions): MethodDecorator {
  return kindDecorator('mutation', '@Mutation', name, options);
}

/** Marks a tool that may ask the user for input mid-call. Combine with `@Action` or `@Mutation`. */
export function Interactive(): MethodDecorator {
  return (target, key, descriptor) => {
    if (!recordMethodTarget('@Interactive', target, key, descriptor)) return;
    metadataStorage.methodRecord(target.constructor, key).interactive = true;
  };
}
