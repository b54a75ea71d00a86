/**
 * The naming rule of composition: how a member of a mounted app, or of a server behind a
 * gateway, is named in the app that serves it. One module, used by mount (src/compose/mount.ts)
 * and the gateway (src/gateway/namespace.ts adapts it to a gateway without a namespace), so
 * that every way of composing names members alike and every name or URI maps back to the
 * member's own.
 *
 * - Tools and prompts: `<namespace>.<name>` (`desk` + `billing.refund` → `desk.billing.refund`).
 * - Resources and templates: the namespace joins the scheme as a prefix label:
 *   `<scheme>:<rest>` → `<namespace>+<scheme>:<rest>` (`billing://invoices/42` →
 *   `desk+billing://invoices/42`, `billing://invoices/{id}` → `desk+billing://invoices/{id}`,
 *   `urn:isbn:123` → `desk+urn:isbn:123`).
 *
 * Why the scheme prefix (and not a first path segment, `billing://desk/42`, the rule mounts had
 * first): the result is still a URI (RFC 3986 §3.1: a scheme is a letter, then letters, digits,
 * `+`, `-`, `.`); the authority, path and query stay exactly as the member wrote them (a
 * `file:///x` or `urn:x` needs no special case); and everything a namespace holds starts with
 * one fixed string, `<namespace>+`, so a gateway can serve every URI of its upstream, whatever
 * its scheme, through one template (`<namespace>+{+uri}`). Mounted templates, their list
 * methods and completions need nothing more: a template is namespaced as a string like a URI,
 * and completions are asked for by that string.
 *
 * - Views (MCP Apps, `ui://` resources) keep their scheme, which hosts require: the namespace
 *   becomes the first segment after it, `ui://<rest>` → `ui://<namespace>/<rest>`
 *   (`ui://desk/main` under `ledger` → `ui://ledger/desk/main`), and a mounted tool's view link
 *   is rewritten alike ({@link namespacedViewUri}).
 *
 * Both directions are exact string operations, so every URI round-trips:
 * `unnamespacedUri(ns, namespacedUri(ns, uri)) === uri`.
 *
 * A namespace is a lowercase letter, then up to 63 lowercase letters, digits or `-`
 * ({@link NAMESPACE_PATTERN}): it must be valid at the head of a scheme, and schemes are
 * case-insensitive (a client or URL parser may lowercase them, which would break the round
 * trip of an uppercase namespace); no `.` (a tool name's namespace is its first dot-separated
 * segment, so `a` and `a.b` could not be told apart), no `_` (not allowed in a scheme), no `+`
 * (the separator).
 */

/** What a namespace may be: valid at the head of a URI scheme, and one segment of a tool name. */
export const NAMESPACE_PATTERN = /^[a-z][a-z0-9-]{0,63}$/;

/** Why `namespace` cannot be a namespace, or undefined when it can. */
export function namespaceProblem(namespace: unknown): string | undefined {
  if (typeof namespace === 'string' && NAMESPACE_PATTERN.test(namespace)) return undefined;
  return (
    `namespace ${JSON.stringify(namespace)} must be a lowercase letter, then up to 63 lowercase letters, digits or "-" ` +
    `(it heads URI schemes, desk+billing://…, which are case-insensitive and allow no "_"; and it is one segment of a tool name: no ".")`
  );
}

/** A view's `ui://` URI under a namespace: `ui://<namespace>/<rest>` (views keep the scheme hosts require). */
export function namespacedViewUri(namespace: string, uri: string): string {
  return `ui://${namespace}/${uri.slice('ui://'.length)}`;
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
 * A resource URI or URI template under a namespace: the namespace joins the scheme as a prefix
 * label, `billing://invoices/42` → `desk+billing://invoices/42`. Everything after the scheme
 * is kept as it is.
 */
export function namespacedUri(namespace: string, uri: string): string {
  return `${namespace}+${uri}`;
}

/** The member's own URI of a namespaced URI, or undefined when `uri` is not under `namespace`. */
export function unnamespacedUri(namespace: string, uri: string): string | undefined {
  const prefix = `${namespace}+`;
  return uri.startsWith(prefix) && uri.length > prefix.length ? uri.slice(prefix.length) : undefined;
}
