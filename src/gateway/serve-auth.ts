import { authFromEnv } from '../auth/auth-from-env';
import type { AuthOptions } from '../auth/http-auth';

/**
 * `mcpfusion serve`'s authorization: the MCP_AUTH_* variables, read as every server reads them
 * (`authFromEnv`, src/auth/auth-from-env.ts), advertised under `resourceName`. None set: undefined
 * (open, for 127.0.0.1 only); some but not all: a ConfigurationError naming what is missing.
 */
export function gatewayAuthFromEnv(env: NodeJS.ProcessEnv, resourceName: string): AuthOptions | undefined {
  return authFromEnv(env, { resourceName });
}
