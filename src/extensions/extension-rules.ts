/**
 * The startup rules of extensions: the 2026-07-28 naming rule of an extension identifier, and
 * the method names an extension may not serve. Pure checks that return the problem found.
 */

/** A prefix label: starts with a letter, ends with a letter or digit, letters, digits and hyphens between. */
const LABEL = /^[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;

/** An extension name: alphanumeric at both ends, `-` `_` `.` and alphanumerics between. */
const NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/** Second labels that make a prefix reserved for MCP (`io.modelcontextprotocol/`, `dev.mcp/`). */
const RESERVED_SECOND_LABELS: ReadonlySet<string> = new Set(['modelcontextprotocol', 'mcp']);

/**
 * The official extensions, whose ids may use the reserved prefix: an implementation of one of
 * them is what the reservation is for. Any other id under a reserved prefix is refused.
 */
export const OFFICIAL_EXTENSION_IDS: ReadonlySet<string> = new Set([
  'io.modelcontextprotocol/tasks',
  'io.modelcontextprotocol/ui',
  'io.modelcontextprotocol/skills',
  'io.modelcontextprotocol/oauth-client-credentials',
  'io.modelcontextprotocol/enterprise-managed-authorization'
]);

/**
 * Why `id` cannot be an extension's identifier, or undefined when it can: `{vendor-prefix}/{name}`
 * as the 2026-07-28 `_meta` key rule says, with the prefix mandatory, and not under a reserved prefix.
 */
export function extensionIdProblem(id: unknown): string | undefined {
  if (typeof id !== 'string') return `an extension id must be a string such as "com.example/my-extension" (got ${String(id)})`;
  const slash = id.indexOf('/');
  if (slash < 0 || id.indexOf('/', slash + 1) >= 0) {
    return `extension id "${id}" must be "{vendor-prefix}/{name}" with one slash, the prefix reverse DNS (com.example/my-extension)`;
  }
  const labels = id.slice(0, slash).split('.');
  const name = id.slice(slash + 1);
  if (labels.some((label) => !LABEL.test(label))) {
    return `extension id "${id}": each label of the prefix must start with a letter and end with a letter or digit (letters, digits, hyphens between)`;
  }
  if (!NAME.test(name)) {
    return `extension id "${id}": the name must begin and end with a letter or digit (-, _, . and alphanumerics between)`;
  }
  if (labels.length > 1 && RESERVED_SECOND_LABELS.has(labels[1]!.toLowerCase()) && !OFFICIAL_EXTENSION_IDS.has(id)) {
    return `extension id "${id}" uses the prefix "${labels.join('.')}/", reserved for MCP: use a reversed domain you own (com.example/${name})`;
  }
  return undefined;
}

/** The methods of the core protocol (both eras): no extension may serve one. */
export const CORE_METHODS: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'server/discover',
  'subscriptions/listen',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'sampling/createMessage',
  'elicitation/create',
  'roots/list'
]);

/** Why an extension may not serve `method`, or undefined when it may. */
export function extensionMethodProblem(id: string, method: string): string | undefined {
  if (typeof method !== 'string' || method === '' || method !== method.trim())
    return `extension ${id} declares a method with an empty or padded name`;
  if (CORE_METHODS.has(method)) return `extension ${id} may not serve ${method}: it is a core method of the protocol`;
  if (method.startsWith('notifications/')) return `extension ${id} may not serve ${method}: notifications are not requests`;
  return undefined;
}
