/**
 * How a gateway names what it serves under a namespace. Tools: `<namespace>.<name>`, the rule
 * mounted apps use (src/compose/namespace.ts on the compose branch; to be unified at merge).
 * Resources: {@link namespacedUri}, this folder's own rule until then.
 */

/** A tool's (or prompt's) name under `namespace`: `desk.billing.refund`; no namespace, the name as is. */
export function namespacedName(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}.${name}` : name;
}

/** The upstream name behind a namespaced one, or undefined when it is not under `namespace`. */
export function upstreamName(namespace: string | undefined, name: string): string | undefined {
  if (!namespace) return name;
  return name.startsWith(`${namespace}.`) ? name.slice(namespace.length + 1) : undefined;
}

/**
 * A resource URI under `namespace`: the namespace joins the scheme as a prefix label,
 * `billing://invoices/3` → `desk+billing://invoices/3`, which is still a URI (RFC 3986 allows
 * `+` in a scheme), keeps the upstream's path and query as they are, and round-trips through
 * {@link upstreamUri}. No namespace: the URI as is.
 */
export function namespacedUri(namespace: string | undefined, uri: string): string {
  return namespace ? `${namespace}+${uri}` : uri;
}

/** The upstream URI behind a namespaced one, or undefined when it is not under `namespace`. */
export function upstreamUri(namespace: string | undefined, uri: string): string | undefined {
  if (!namespace) return uri;
  return uri.startsWith(`${namespace}+`) ? uri.slice(namespace.length + 1) : undefined;
}

/** Namespaces the rules accept: a letter, then letters, digits, `_` and `-` (so the tool rule and the URI rule both hold). */
export const NAMESPACE_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
