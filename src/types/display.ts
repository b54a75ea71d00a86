/**
 * What people see of a member (tools, resources, templates, prompts, views) besides its name:
 * types only, a leaf of the import graph (see test/unit/layers.test.ts).
 */

/**
 * An icon a client may show beside a member (the protocol's `Icon`, 2025-11-25 and later).
 *
 * @example
 * ```ts
 * { src: 'data:image/svg+xml;base64,PHN2Zy…', mimeType: 'image/svg+xml', sizes: ['any'] }
 * ```
 */
export interface Icon {
  /** An `https:` URL or a `data:` URL of the image (other schemes are refused at startup). */
  readonly src: string;
  /** The image's media type, `type/subtype` (`image/png`, `image/svg+xml`). */
  readonly mimeType?: string;
  /** The sizes the image fits, each `WIDTHxHEIGHT` (`48x48`) or `any` (a scalable image). */
  readonly sizes?: readonly string[];
  /** The theme the icon is drawn for; absent: any. */
  readonly theme?: 'light' | 'dark';
}

/** A member's `_meta`: a plain JSON object, listed as given (keys the protocol or the framework own are refused at startup). */
export type MemberMeta = { readonly [key: string]: unknown };

/**
 * Who may call a tool, as MCP Apps hosts read it (`_meta.ui.visibility`): `'model'` the agent,
 * `'app'` a view of the same server. Default `['model', 'app']`; `['app']` for a tool only a
 * view calls (the host hides it from the model; the server still applies every rule to it).
 */
export type ViewVisibility = 'model' | 'app';
