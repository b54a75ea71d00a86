/**
 * What both views of the sample share: connecting to the host with the ext-apps `App` (the
 * `ui/initialize` handshake; the size is reported by the App's ResizeObserver), following the
 * host's theme, and calling the server's tools through the host with the types
 * `mcpfusion types` wrote (tool-types.mts), so a renamed field fails the views' build.
 *
 * Browser code: bundled with the ext-apps browser bundle into one document by
 * scripts/views/build-views.mjs (no network at run time).
 */
import {
  App,
  applyDocumentTheme,
  applyHostFonts,
  applyHostStyleVariables,
  type McpUiHostContext
} from '@modelcontextprotocol/ext-apps/app-with-deps';
import type { ToolMap, ToolName } from './tool-types.mjs';

/** Options of a call from a view (progress, cancellation), as the App takes them. */
export type CallOptions = NonNullable<Parameters<App['callServerTool']>[1]>;

/** What a call from the view ended with: the tool's typed output, or what went wrong, in words. */
export type CallOutcome<N extends ToolName> =
  { readonly ok: true; readonly output: ToolMap[N]['output'] } | { readonly ok: false; readonly message: string };

/** The text blocks of a result, joined (what a tool error says). */
export function textOf(result: { readonly content?: readonly unknown[] }): string {
  return (result.content ?? [])
    .map((block) => (isRecord(block) && block.type === 'text' && typeof block.text === 'string' ? block.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/** Whether a value is a plain object (what arrives from the host is checked, never trusted). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Calls a server tool through the host (`tools/call` from the view), typed by the server's
 * listed schemas. A tool error (`isError`) is an outcome, not an exception; a refusal by the
 * host or a lost connection is thrown, as is the abort of `options.signal`.
 */
export async function callTool<N extends ToolName>(
  app: App,
  name: N,
  input: ToolMap[N]['input'],
  options?: CallOptions
): Promise<CallOutcome<N>> {
  const result = await app.callServerTool({ name, arguments: input as Record<string, unknown> }, options);
  if (result.isError) return { ok: false, message: textOf(result) || `${name} failed` };
  return { ok: true, output: result.structuredContent as ToolMap[N]['output'] };
}

/** Applies the host's theme, style variables and fonts (each optional: the view's CSS has fallbacks). */
export function followHostTheme(context: McpUiHostContext | undefined): void {
  if (!context) return;
  if (context.theme) applyDocumentTheme(context.theme);
  if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
  if (context.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
}

/** The host's locale (BCP 47), for numbers and dates; the browser's when the host gives none. */
export function hostLocale(app: App): string | undefined {
  return app.getHostContext()?.locale;
}

/**
 * Creates the view's App, lets `listen` register its handlers (before the handshake, so no
 * tool input or result is missed), connects to the host (`window.parent`) and follows its theme.
 */
export async function openView(name: string, listen: (app: App) => void): Promise<App> {
  const app = new App({ name, version: '1.0.0' }, {}, { autoResize: true });
  listen(app);
  app.addEventListener('hostcontextchanged', () => followHostTheme(app.getHostContext()));
  await app.connect();
  followHostTheme(app.getHostContext());
  return app;
}

/** `document.querySelector` that fails loudly when the view's markup (`<name>.html`) lacks the element. */
export function element<T extends Element>(selector: string): T {
  const found = document.querySelector<T>(selector);
  if (!found) throw new Error(`the view's document has no ${selector}`);
  return found;
}

/** An amount in cents as money in the host's locale. */
export function money(cents: number, currency: string, locale: string | undefined): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(cents / 100);
}
