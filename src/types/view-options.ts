/**
 * What a view (MCP Apps) is declared with: the types of `view({ … })` and the `views` option, apart
 * from `views/` so that what takes views (the app's options, a mount) can name them from below it.
 */
import type { CallContext } from './context';
import type { Icon } from './display';

/**
 * The origins a view may reach, which the host turns into its Content Security Policy. Each
 * entry is an origin: `https://api.example.com`, `wss://live.example.com`, a wildcard subdomain
 * `https://*.example.com`, or `http://localhost:5173` (plain http only on loopback). Absent
 * lists mean none: by default a view reaches no network at all.
 */
export interface ViewCsp {
  /** Origins of `fetch`, XHR and WebSocket (`connect-src`). */
  readonly connectDomains?: readonly string[];
  /** Origins of scripts, styles, images, fonts and media (`script-src`, `style-src`, `img-src`, …). */
  readonly resourceDomains?: readonly string[];
  /** Origins of nested iframes (`frame-src`). */
  readonly frameDomains?: readonly string[];
  /** Origins the document's `<base>` may name (`base-uri`). */
  readonly baseUriDomains?: readonly string[];
}

/** Browser features a view asks the host for (see {@link ViewOptions.permissions}). */
export type ViewPermissions = NonNullable<ViewOptions['permissions']>;

/** What a view is declared with: `view({ uri, name, html, … })`. */
export interface ViewOptions {
  /** The view's URI: `ui://` then a path of your choosing (`ui://billing/desk`). Tools name it in their `view` option. */
  readonly uri: string;
  /** A short identifier (`resources/list` name). */
  readonly name: string;
  /** Display name for people. */
  readonly title?: string;
  /** What the view shows. */
  readonly description?: string;
  /** Icons a client may show beside it (each an https: or data: URL). */
  readonly icons?: readonly Icon[];
  /**
   * The complete HTML5 document (`<!DOCTYPE html>…`), with what it needs inlined (a view loads
   * nothing its CSP does not allow): the document itself (a string), a file read once at startup
   * (`{ file }`, relative to the working directory), or a function called on each read with the
   * call's context (what it returns is served; an empty document is an error).
   */
  readonly html:
    | string
    | {
        /** The document's path, relative to the working directory (or absolute); read once, at startup. */
        readonly file: string;
      }
    | ((ctx: CallContext) => string | Promise<string>);
  /** The origins the view may reach (default: none). */
  readonly csp?: ViewCsp;
  /**
   * Browser features the view asks the host for (the iframe's `allow`): `camera`, `microphone`,
   * `geolocation`, `clipboardWrite`, each `{}`. Hosts may refuse: detect them in the view.
   */
  readonly permissions?: {
    /** The camera. */
    readonly camera?: Record<string, never>;
    /** The microphone. */
    readonly microphone?: Record<string, never>;
    /** The position of the device. */
    readonly geolocation?: Record<string, never>;
    /** Writing to the clipboard. */
    readonly clipboardWrite?: Record<string, never>;
  };
  /** A dedicated origin for the view's sandbox, in the form the host documents (`{hash}.claudemcpcontent.com`). */
  readonly domain?: string;
  /** Whether the host should draw a border and background around the view (absent: the host decides). */
  readonly prefersBorder?: boolean;
  /** More `_meta` listed with the view (its `ui` key is the framework's). */
  readonly _meta?: { readonly [key: string]: unknown };
}
