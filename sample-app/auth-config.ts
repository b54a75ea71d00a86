import type { AuthOptions } from '@mcpfusion/core';
import { authFromEnv } from '@mcpfusion/core/advanced';

/**
 * The billing desk as an OAuth 2.1 protected resource, configured from the environment: the
 * MCP_AUTH_* variables as the framework's `authFromEnv` reads them (MCP_AUTH_ISSUER,
 * MCP_AUTH_AUDIENCE, MCP_AUTH_JWKS_FILE or MCP_AUTH_JWKS_URL, MCP_AUTH_RESOURCE), advertised as
 * the "Billing desk".
 *
 * None set: undefined (the desk runs open, for local use on 127.0.0.1 only). Some but not all:
 * an error that says what is missing (a half-configured server must not start open).
 */
export function deskAuthFromEnv(env: NodeJS.ProcessEnv = process.env): AuthOptions | undefined {
  return authFromEnv(env, { resourceName: 'Billing desk' });
}
