import { ConfigurationError } from '../errors';
import { displayOf, type DisplayFields } from '../metadata/member-display';
import type { CallContext } from '../types/context';
import { cspEntryProblem } from './csp-origins';
import { VIEW_SCHEME } from '../metadata/tool-view';
import type { ViewCsp, ViewOptions, ViewPermissions } from '../types/view-options';

/** A view's `_meta.ui` as listed and served (only what was declared). */
export interface UiResourceMeta {
  readonly csp?: ViewCsp;
  readonly permissions?: ViewPermissions;
  readonly domain?: string;
  readonly prefersBorder?: boolean;
}

/** A view, checked: its listing fields, its `_meta.ui`, and its document (read once, or a function called per read). */
export interface ViewDescriptor extends DisplayFields {
  readonly uri: string;
  readonly name: string;
  readonly description?: string;
  readonly ui: UiResourceMeta;
  readonly document: string | ((ctx: CallContext) => string | Promise<string>);
  /** The mount it comes from, when it is a mounted app's view (served at its namespaced URI, from the mount's home). */
  readonly mountedUnder?: string;
}

const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const PERMISSION_KEYS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;
const VIEW_META_KEYS: ReadonlyMap<string, string> = new Map([
  ['ui', 'declare it with the csp, permissions, domain and prefersBorder options']
]);
/** A complete HTML5 document starts with its doctype (after white space and comments). */
const HTML5_START = /^\uFEFF?\s*(?:<!--[\s\S]*?-->\s*)*<!doctype\s+html\s*>/i;

/**
 * The views of the `views` option, checked all at once: each misuse (a URI that is not
 * `ui://`, a duplicate, an empty or incomplete document, a CSP entry that is not an origin,
 * an unknown permission) is one line of a single ConfigurationError that says the fix. String
 * and file documents are read and checked here, so a broken view never reaches a host.
 */
export function describeViews(views: readonly ViewOptions[] | undefined): ViewDescriptor[] {
  if (views === undefined) return [];
  const problems: string[] = [];
  const described: ViewDescriptor[] = [];
  const seen = new Set<string>();
  if (!Array.isArray(views)) {
    throw new ConfigurationError('Cannot start: views must be a list of view({ uri, name, html, … }).');
  }
  views.forEach((options: ViewOptions, index) => {
    const uri: unknown = (options as Partial<ViewOptions> | undefined)?.uri;
    const where = `views[${index}]${typeof uri === 'string' ? ` (${uri})` : ''}`;
    const before = problems.length;
    if (typeof uri !== 'string' || !uri.startsWith(VIEW_SCHEME) || uri.length === VIEW_SCHEME.length) {
      problems.push(`${where}: uri ${JSON.stringify(uri)} is not a view's URI: views are served at ui:// URIs (ui://billing/desk).`);
    } else if (seen.has(uri)) {
      problems.push(`${where}: another view has the URI ${uri}: give each view its own.`);
    } else seen.add(uri);
    if (typeof options?.name !== 'string' || options.name.trim() === '')
      problems.push(`${where}: pass { name: '…' } (its resources/list name).`);
    if (options?.description !== undefined && typeof options.description !== 'string')
      problems.push(`${where}: description must be a string.`);
    const display = displayOf(where, options, problems, VIEW_META_KEYS);
    const ui = uiMetaOf(where, options ?? ({} as ViewOptions), problems);
    const document = documentOf(where, options?.html, problems);
    if (problems.length > before || document === undefined) return;
    described.push(
      Object.freeze({
        ...display,
        uri: uri as string,
        name: options.name,
        ...(options.description ? { description: options.description } : {}),
        ui,
        document
      })
    );
  });
  if (problems.length > 0)
    throw new ConfigurationError(`Cannot start: ${problems.length} problem(s) with the views:\n- ${problems.join('\n- ')}`);
  return described;
}

/** The view's document: a string or a file's text (checked now), or a function (checked on each read). */
function documentOf(where: string, html: unknown, problems: string[]): ViewDescriptor['document'] | undefined {
  if (typeof html === 'function') return html as (ctx: CallContext) => string | Promise<string>;
  let text: string;
  let source: string;
  if (typeof html === 'string') {
    text = html;
    source = 'html';
  } else if (html && typeof html === 'object' && typeof (html as { file?: unknown }).file === 'string') {
    // `node:fs` only for a view read from a file: an app whose views are strings (a Worker's) never loads it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
    const { readFileSync } = require('node:fs') as typeof import('node:fs');
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
    const path = (require('node:path') as typeof import('node:path')).resolve((html as { file: string }).file);
    source = `html file ${path}`;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      problems.push(
        `${where}: cannot read ${source} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): give a path relative to the working directory, or an absolute one.`
      );
      return undefined;
    }
  } else {
    problems.push(`${where}: html must be the document (a string), { file: 'path/to/view.html' } or a function returning the document.`);
    return undefined;
  }
  const issue = documentProblem(text);
  if (issue) {
    problems.push(`${where}: ${source} ${issue}`);
    return undefined;
  }
  return text;
}

/** Why a view's document cannot be served, or undefined (also what a document function's result is checked with). */
export function documentProblem(text: unknown): string | undefined {
  if (typeof text !== 'string' || text.trim() === '')
    return 'is empty: a view is a complete HTML5 document (<!DOCTYPE html><html>…</html>).';
  if (!HTML5_START.test(text)) return 'is not a complete HTML5 document: start it with <!DOCTYPE html>.';
  return undefined;
}

/** `_meta.ui` from the options: CSP origins, known permissions, a domain, the border preference. */
function uiMetaOf(where: string, options: ViewOptions, problems: string[]): UiResourceMeta {
  const { csp, permissions, domain, prefersBorder } = options;
  const ui: { -readonly [K in keyof UiResourceMeta]: UiResourceMeta[K] } = {};
  if (csp !== undefined) {
    if (!csp || typeof csp !== 'object')
      problems.push(`${where}: csp must be { connectDomains?, resourceDomains?, frameDomains?, baseUriDomains? }.`);
    else {
      const out: Record<string, string[]> = {};
      for (const key of Object.keys(csp)) {
        if (!(CSP_KEYS as readonly string[]).includes(key))
          problems.push(`${where}: csp.${key} is not a CSP list: use ${CSP_KEYS.join(', ')}.`);
      }
      for (const key of CSP_KEYS) {
        const list = csp[key];
        if (list === undefined) continue;
        if (!Array.isArray(list)) {
          problems.push(`${where}: csp.${key} must be a list of origins.`);
          continue;
        }
        for (const entry of list) {
          const issue = cspEntryProblem(entry);
          if (issue) problems.push(`${where}: csp.${key} entry ${issue}`);
        }
        out[key] = [...(list as string[])];
      }
      ui.csp = out;
    }
  }
  if (permissions !== undefined) {
    const keys = permissions && typeof permissions === 'object' ? Object.keys(permissions) : [];
    const unknown = keys.filter((key) => !(PERMISSION_KEYS as readonly string[]).includes(key));
    if (!permissions || typeof permissions !== 'object' || unknown.length > 0) {
      problems.push(
        `${where}: permissions takes ${PERMISSION_KEYS.map((k) => `${k}: {}`).join(', ')}${unknown.length ? ` (not ${unknown.join(', ')})` : ''}.`
      );
    } else ui.permissions = Object.fromEntries(keys.map((key) => [key, {}]));
  }
  if (domain !== undefined) {
    if (typeof domain !== 'string' || domain.trim() === '' || /[\s/]/.test(domain)) {
      problems.push(`${where}: domain must be a host name in the form your host documents (got ${JSON.stringify(domain)}).`);
    } else ui.domain = domain;
  }
  if (prefersBorder !== undefined) {
    if (typeof prefersBorder !== 'boolean') problems.push(`${where}: prefersBorder must be true or false.`);
    else ui.prefersBorder = prefersBorder;
  }
  return Object.freeze(ui);
}
