/* "Your own code" for docs/views.md's app block: the desk's tool class (the guide shows it in the block before). */
import { Action, ToolProvider } from '@mcpfusion/core';

/** The tools the invoice desk's view calls. */
@ToolProvider()
export class DeskTools {
  @Action('billing.list', { description: 'List invoices, newest first', view: 'ui://billing/desk' })
  list() {
    return { invoices: [] };
  }
}
