/**
 * Declaring a view (MCP Apps, extension `io.modelcontextprotocol/ui`, stable 2026-01-26): an
 * HTML5 document a host renders in a sandboxed iframe beside the tools that name it. What a
 * user writes; the checks and the compiled resource are in the files beside this one.
 */
import type { ViewOptions } from '../types/view-options';

/** The media type of a view's document (MCP Apps' HTML profile), listed and served with it. */
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

/** The MCP Apps extension's identifier, under `capabilities.extensions` on both sides. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';

/**
 * Declares a view for the app's `views` option. Views are resources: `resources/read` of the
 * URI runs the same chain as any resource (global middleware, queue, telemetry) and answers the
 * document as `text/html;profile=mcp-app` with `_meta.ui` (CSP, permissions, domain, border), also
 * listed in `resources/list`. Everything is checked at startup with the app's other members.
 *
 * @example
 * ```ts
 * const app = FusionApp.create({
 *   tools: [BillingTools], // @Action('billing.list', { description: '…', view: 'ui://billing/desk' })
 *   views: [view({ uri: 'ui://billing/desk', name: 'invoice-desk', html: { file: 'views/desk.html' }, prefersBorder: true })]
 * });
 * ```
 */
export function view(options: ViewOptions): ViewOptions {
  return Object.freeze({ ...options });
}
