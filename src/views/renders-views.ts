import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { isPlainJsonObject, ownValue } from '../wire/own-properties';
import { UI_EXTENSION, VIEW_MIME_TYPE } from './view';

/**
 * Whether the caller renders views (an MCP Apps host that declared the `io.modelcontextprotocol/ui`
 * extension with the `text/html;profile=mcp-app` media type): on 2026-07-28 from the request's
 * own client capabilities, on 2025-era connections from `initialize` (a stateless 2025 HTTP
 * request has none, so: no). A tool may shorten its text `content` for a host that shows its
 * view, but must still return meaningful content: the host may show both, and others only the text.
 *
 * @example
 * ```ts
 * @Action('billing.list', { description: 'List invoices', view: 'ui://billing/desk' })
 * list(@Ctx() ctx: CallContext) {
 *   const rows = this.invoices.all();
 *   return rendersViews(ctx) ? { items: rows, note: 'Shown in the invoice desk.' } : { items: rows };
 * }
 * ```
 */
export function rendersViews(ctx: { readonly clientCapabilities?: ClientCapabilities }): boolean {
  const extensions = ownValue(ctx.clientCapabilities, 'extensions');
  const ui = ownValue(extensions, UI_EXTENSION);
  if (!isPlainJsonObject(ui)) return false;
  const mimeTypes = ownValue(ui, 'mimeTypes');
  return Array.isArray(mimeTypes) && mimeTypes.includes(VIEW_MIME_TYPE);
}
