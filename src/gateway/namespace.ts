/**
 * How a gateway names what it serves: the composition rule of src/compose/namespace.ts (tools
 * and prompts `<namespace>.<name>`, resources and templates `<namespace>+<scheme>:<rest>`, the
 * rule mounted apps use), for a gateway that may have no namespace (then names and URIs are the
 * upstream's own).
 */
import {
  NAMESPACE_PATTERN,
  namespacedName as composeName,
  namespacedUri as composeUri,
  unnamespacedName,
  unnamespacedUri
} from '../compose/namespace';

/** Namespaces the rule accepts (the composition rule's: a lowercase letter, then lowercase letters, digits, `-`). */
export { NAMESPACE_PATTERN };

/** A tool's (or prompt's) name under `namespace`: `desk.billing.refund`; no namespace, the name as is. */
export function namespacedName(namespace: string | undefined, name: string): string {
  return namespace ? composeName(namespace, name) : name;
}

/** The upstream name behind a namespaced one, or undefined when it is not under `namespace`. */
export function upstreamName(namespace: string | undefined, name: string): string | undefined {
  return namespace ? unnamespacedName(namespace, name) : name;
}

/**
 * A resource URI under `namespace`: `billing://invoices/3` → `desk+billing://invoices/3` (see
 * src/compose/namespace.ts for why); round-trips through {@link upstreamUri}. No namespace: the URI as is.
 */
export function namespacedUri(namespace: string | undefined, uri: string): string {
  return namespace ? composeUri(namespace, uri) : uri;
}

/** The upstream URI behind a namespaced one, or undefined when it is not under `namespace`. */
export function upstreamUri(namespace: string | undefined, uri: string): string | undefined {
  return namespace ? unnamespacedUri(namespace, uri) : uri;
}
