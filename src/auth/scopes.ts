/**
 * OAuth scopes as members declare them: checked once at startup against the `scope-token`
 * grammar (RFC 6749 §3.3), compared per call without allocating when nothing is missing.
 */

/** RFC 6749 `scope-token`: one or more of %x21 / %x23-5B / %x5D-7E (no space, `"` or `\`). */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** Whether a string is a valid OAuth scope token. */
export function isScopeToken(value: unknown): value is string {
  return typeof value === 'string' && SCOPE_TOKEN.test(value);
}

/**
 * Checks a `scopes` option as written (`where` names it in messages); returns the scopes, frozen
 * and without duplicates, or undefined when the option is absent or wrong (the problem is recorded).
 */
export function scopesOption(where: string, value: unknown, problems: string[]): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    problems.push(`${where}: scopes must be a list of OAuth scope names (got ${typeof value}).`);
    return undefined;
  }
  const bad = value.filter((scope) => !isScopeToken(scope));
  if (bad.length > 0) {
    problems.push(
      `${where}: ${bad.map((s) => JSON.stringify(s)).join(', ')} ${bad.length > 1 ? 'are not' : 'is not'} an OAuth scope (RFC 6749: printable ASCII, no space, quote or backslash).`
    );
    return undefined;
  }
  return Object.freeze([...new Set(value as string[])]);
}

const NONE: readonly string[] = Object.freeze([]);

/** The required scopes that `granted` lacks (the shared empty list when none is missing). */
export function missingScopes(required: readonly string[], granted: readonly string[] | undefined): readonly string[] {
  let missing: string[] | undefined;
  for (const scope of required) {
    if (granted?.includes(scope)) continue;
    (missing ??= []).push(scope);
  }
  return missing ?? NONE;
}

/** A member's scopes: its own `scopes`, else its class's `@ToolProvider({ scopes })` (both checked against the OAuth grammar). */
export function memberScopes(where: string, own: unknown, className: string, classScopes: unknown, problems: string[]): readonly string[] {
  const fromClass = scopesOption(`@ToolProvider() of ${className}`, classScopes, problems);
  return scopesOption(where, own, problems) ?? fromClass ?? NONE;
}
