import { metadataStorage } from '../metadata/metadata-storage';
import type { InteractiveOptions, MutationOptions, ToolOptions } from '../metadata/types';
import type { OutputSpec } from '../types/core';
import type { OutputCheckedDecorator, OutputValue } from './handler-return';
import { memberDecorator } from './member.decorator';
import { recordMethodTarget } from './member-target';

/**
 * Marks a method as a read-only tool (`readOnlyHint: true`). With an `output` class (and no
 * presenter), the method's return type is checked against it when the program is compiled:
 * it must return (or resolve, or return from its generator) the class, `[Class]` a list of it,
 * or an `InputRound`.
 *
 * @example
 * ```ts
 * @Action('billing.invoice', { description: 'Read one invoice with its customer' })
 * invoice(@Input() input: InvoiceQuery) { ... }
 * ```
 */
export function Action<O extends OutputSpec>(
  name: string,
  options: ToolOptions & { output: O; presenter?: undefined }
): OutputCheckedDecorator<OutputValue<O>>;
/** A tool without a declared output, or with a presenter (which takes whatever the method returns). */
export function Action(name: string, options: ToolOptions): MethodDecorator;
export function Action(name: string, options: ToolOptions): MethodDecorator {
  return memberDecorator('action', '@Action', name, options);
}

/**
 * Marks a method as a destructive tool (`destructiveHint: true`). Its return type is checked
 * against its `output` class as for {@link Action}. By default the mutations of
 * one app run one at a time, in arrival order, through a FIFO serializer; `serializeOn` narrows
 * that to the tool, or to keys computed from the validated input, so that mutations of different
 * things run in parallel while those of the same thing keep their order.
 *
 * @example
 * ```ts
 * @Mutation('billing.refund', {
 *   description: 'Refund an invoice',
 *   serializeOn: (input: RefundRequest) => `invoice:${input.invoiceId}`
 * })
 * refund(@Input() input: RefundRequest, @Ctx() ctx: CallContext) { ... }
 * ```
 */
export function Mutation<O extends OutputSpec>(
  name: string,
  options: MutationOptions & { output: O; presenter?: undefined }
): OutputCheckedDecorator<OutputValue<O>>;
/** A mutation without a declared output, or with a presenter (which takes whatever the method returns). */
export function Mutation(name: string, options: MutationOptions): MethodDecorator;
export function Mutation(name: string, options: MutationOptions): MethodDecorator {
  return memberDecorator('mutation', '@Mutation', name, options);
}

/**
 * Marks a tool (or prompt, or resource template) that may ask the user for input mid-call.
 * Combine with `@Action`, `@Mutation`, `@Prompt` or `@ResourceTemplate`.
 *
 * @example
 * ```ts
 * @Interactive({ singleUseState: true }) // a confirmation cannot be replayed
 * @Mutation('billing.refund', { description: 'Refund an invoice after the user confirms' })
 * refund(@Input() request: RefundRequest) { ... }
 * ```
 */
export function Interactive(options: InteractiveOptions = {}): MethodDecorator {
  return (target, key, descriptor) => {
    if (!recordMethodTarget('@Interactive', target, key, descriptor)) return;
    const record = metadataStorage.methodRecord(target.constructor, key);
    record.interactive = true;
    record.interactiveOptions = options;
  };
}
