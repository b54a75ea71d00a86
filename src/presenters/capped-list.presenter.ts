import type { CallToolResult } from '@modelcontextprotocol/server';
import type { JsonSchema } from '../types/core';
import type { PresentationContext, Presenter } from '../types/presenter';

/** Options of {@link cappedList}. */
export interface CappedListOptions {
  /** Items shown at most. */
  max: number;
  /** Agent-facing guidance appended to the result, for example which tool to call next. */
  guidance?: string | ((shown: readonly unknown[], total: number) => string | undefined);
}

/**
 * A presenter that caps a list: it shows at most `max` items, says how many were left
 * out, and adds guidance for the agent. Structured output is `{ items, total, omitted }`.
 *
 * @example
 * ```ts
 * @Action('billing.list', { description: '…', output: [InvoiceView],
 *   presenter: cappedList({ max: 20, guidance: 'Call billing.invoice with an id for details.' }) })
 * ```
 */
export function cappedList(options: CappedListOptions): Presenter {
  if (!Number.isInteger(options.max) || options.max < 1)
    throw new RangeError(`cappedList max must be a positive integer (got ${options.max}).`);
  return {
    outputSchema(base: JsonSchema | undefined): JsonSchema {
      const items = (base?.properties as Record<string, JsonSchema> | undefined)?.items ?? { type: 'array' };
      return {
        type: 'object',
        properties: { items, total: { type: 'integer' }, omitted: { type: 'integer' } },
        required: ['items', 'total', 'omitted']
      };
    },
    present(value: unknown, ctx: PresentationContext): CallToolResult {
      if (!Array.isArray(value)) return ctx.shape(value);
      const shown = value.slice(0, options.max);
      const omitted = value.length - shown.length;
      const notes: string[] = [];
      if (omitted > 0) notes.push(`${omitted} more not shown (${value.length} in all); narrow the query to see them.`);
      const guidance = typeof options.guidance === 'function' ? options.guidance(shown, value.length) : options.guidance;
      if (guidance) notes.push(guidance);
      return ctx.shape({ items: shown, total: value.length, omitted }, notes);
    }
  };
}
