/**
 * The MCP_AUTH_* variables that turn authorization on: with any one of them set, `authFromEnv`
 * configures it (or refuses a half configuration). A module of its own, loading nothing, so that
 * `mcpfusion serve` can size its port's headers for bearer tokens before the framework loads.
 */
export const AUTH_SWITCHES = ['MCP_AUTH_ISSUER', 'MCP_AUTH_AUDIENCE', 'MCP_AUTH_JWKS_FILE', 'MCP_AUTH_JWKS_URL'] as const;

/** Whether `env` sets any of {@link AUTH_SWITCHES} (blank values do not count, as `authFromEnv` trims them). */
export function authSwitchedOn(env: NodeJS.ProcessEnv): boolean {
  return AUTH_SWITCHES.some((name) => Boolean(env[name]?.trim()));
}
