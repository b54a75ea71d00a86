/*
 * The snippets of docs/views.md, as the program they are part of (test/readme/readme.test.ts
 * checks that each block appears here verbatim; this file compiles with the tests, and
 * test/integration/views.test.ts starts the app it declares).
 */
import 'reflect-metadata';
import { IsInt, Min } from 'class-validator';
import { Action, Ctx, FusionApp, Input, Mutation, ToolProvider, rendersViews, view, type CallContext } from '@mcpfusion/core';

/** The desk's icon: an inline SVG, so clients fetch nothing. */
const DESK_ICON = { src: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=', mimeType: 'image/svg+xml', sizes: ['any'] };

class RefundRequest {
  @IsInt() @Min(1) id!: number;
}

@ToolProvider()
export class DeskTools {
  @Action('billing.list', {
    description: 'List invoices, newest first',
    title: 'List invoices',
    icons: [DESK_ICON],
    view: 'ui://billing/desk'
  })
  list(@Ctx() ctx: CallContext) {
    const invoices = [{ id: 3, customer: 'Globex', status: 'paid' }];
    // Every host gets meaningful content; one that shows the desk needs no table in the text.
    return rendersViews(ctx) ? { invoices, note: 'Shown in the invoice desk.' } : { invoices };
  }

  @Mutation('billing.refund', { description: 'Refund a paid invoice (the desk calls it)', visibility: ['app'] })
  refund(@Input() request: RefundRequest) {
    return { id: request.id, status: 'refunded' };
  }
}

/** The desk app, its view read from `desk` (a path relative to the working directory). */
export function createDeskApp(desk: string): FusionApp {
  return FusionApp.create({
    name: 'billing-desk',
    tools: [DeskTools],
    views: [
      view({
        uri: 'ui://billing/desk',
        name: 'invoice-desk',
        title: 'Invoice desk',
        html: { file: desk },
        csp: { connectDomains: ['https://api.example.com'] },
        prefersBorder: true
      })
    ]
  });
}

/** A view made on each read, from the call's context: here, from a template and the server's own data. */
export const statusView = view({
  uri: 'ui://billing/status',
  name: 'status',
  html: async (ctx) => `<!DOCTYPE html><html><body><p>Served to ${ctx.auth?.clientId ?? 'a local client'}</p></body></html>`
});
