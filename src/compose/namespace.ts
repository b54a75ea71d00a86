/**
 * The naming rule of composition: how a member of a mounted app (or of a server behind a
 * gateway) is named in the app that serves it. One module, so that every way of composing
 * (mount, proxy) names members alike, and a name or URI can be mapped back to the member's own.
 *
 * - Tools and prompts: `<namespace>.<name>` (`desk` + `billing.refund` → `desk.billing.refund`).
 * - Resources and templates: the namespace becomes the first segment after the scheme:
 *   `<scheme>://<rest>` → `<scheme>://<namespace>/<rest>` (`invoices://42` → `invoices://desk/42`,
 *   `invoices://{id}` → `invoices://desk/{id}`); a URI without `//` (`urn:x`) becomes
 *   `<scheme>:<namespace>/<rest>`. Both directions are exact string operations, so a URI
 *   round-trips: `unnamespacedUri(ns, namespacedUri(ns, uri)) === uri` for every URI with a scheme.
 *
 * A namespace is 1–64 of `A–Z a–z 0–9 _ -` (no dot, no slash: it is one segment of either form).
 */

/** What a namespace may be: one segment of a tool name and of a URI. */
const NAMESPACE = /^[A-Za-z0-9_-]{1,64}$/;

/** A URI's scheme and what follows it (`//` included when present). */
const SCHEMED = /^([A-Za-z][A-Za-z0-9+.-]*:)(\/\/)?(.*)$/s;

/** Why `namespace` cannot be a namespace, or undefined when it can. */
export function namespaceProblem(namespace: string): string | undefined {
  if (typeof namespace !== 'string' || !NAMESPACE.test(namespace)) {
    return `namespace ${JSON.stringify(namespace)} must be 1-64 characters of A-Z a-z 0-9 _ - (one segment: no dot, no slash)`;
  }
  return undefined;
}

/** A tool's or prompt's name under a namespace: `<namespace>.<name>`. */
export function namespacedName(namespace: string, name: string): string {
  return `${namespace}.${name}`;
}

/** The member's own name of a namespaced name, or undefined when `name` is not under `namespace`. */
export function unnamespacedName(namespace: string, name: string): string | undefined {
  const prefix = `${namespace}.`;
  return name.startsWith(prefix) && name.length > prefix.length ? name.slice(prefix.length) : undefined;
}

/**
 * A resource URI or URI template under a namespace: the namespace becomes the first segment
 * after the scheme (`invoices://42` → `invoices://desk/42`). Throws a TypeError for a string
 * without a scheme (the framework refuses such URIs at startup anyway).
 */
export function namespacedUri(namespace: string, uri: string): string {
  const parts = SCHEMED.exec(uri);
  if (!parts) throw new TypeError(`Not a URI (no scheme): ${uri}`);
  const [, scheme, slashes = '', rest] = parts;
  return `${scheme}${slashes}${namespace}/${rest}`;
}

/** The member's own URI of a namespaced URI, or undefined when `uri` is not under `namespace`. */
export function unnamespacedUri(namespace: string, uri: string): string | undefined {
  const parts = SCHEMED.exec(uri);
  if (!parts) return undefined;
  const [, scheme, slashes = '', rest] = parts;
  const prefix = `${namespace}/`;
  return rest!.startsWith(prefix) ? `${scheme}${slashes}${rest!.slice(prefix.length)}` : undefined;
}
