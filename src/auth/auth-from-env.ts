import { ConfigurationError } from '../errors';
import { authSwitchedOn } from './auth-switch';
import type { AuthOptions } from './http-auth';
import { jwtVerifier, type JSONWebKeySet } from './jwt-verifier';

/**
 * The HTTP endpoint as an OAuth 2.1 protected resource, configured from the environment (what
 * `mcpfusion serve` and the sample app read):
 *
 *   MCP_AUTH_ISSUER      the authorization server's issuer (tokens' `iss`; advertised in the metadata)
 *   MCP_AUTH_AUDIENCE    this server's resource identifier (tokens' `aud`), e.g. https://billing.example.com/mcp
 *   MCP_AUTH_JWKS_FILE   a JSON file holding the issuer's public keys (a JWKS), or
 *   MCP_AUTH_JWKS_URL    where the issuer publishes them (fetched, cached, re-fetched on rotation)
 *   MCP_AUTH_RESOURCE    the public URL advertised as `resource` (default: the audience)
 *
 * None set: undefined (the server runs open, for local use on 127.0.0.1 only). Some but not all,
 * both JWKS variables, or a JWKS file that cannot be read: a ConfigurationError that says what to
 * fix (a half-configured server must not start open).
 *
 * @example
 * ```ts
 * const auth = authFromEnv(process.env, { resourceName: 'Billing desk' });
 * const app = FusionApp.create({ tools: [BillingTools], ...(auth ? { auth } : {}) });
 * ```
 */
export function authFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  options: {
    /** The server's name for people, advertised as `resource_name` (`AuthOptions.resourceName`). */
    readonly resourceName?: string;
  } = {}
): AuthOptions | undefined {
  const issuer = env.MCP_AUTH_ISSUER?.trim();
  const audience = env.MCP_AUTH_AUDIENCE?.trim();
  const jwksFile = env.MCP_AUTH_JWKS_FILE?.trim();
  const jwksUrl = env.MCP_AUTH_JWKS_URL?.trim();
  if (!authSwitchedOn(env)) return undefined;
  const missing = [
    !issuer && 'MCP_AUTH_ISSUER',
    !audience && 'MCP_AUTH_AUDIENCE',
    !jwksFile && !jwksUrl && 'MCP_AUTH_JWKS_FILE or MCP_AUTH_JWKS_URL'
  ].filter((name): name is string => typeof name === 'string');
  if (missing.length > 0)
    throw new ConfigurationError(
      `auth is half configured: set ${missing.join(', ')} as well (or none of the MCP_AUTH_* variables to run open).`
    );
  if (jwksFile && jwksUrl) throw new ConfigurationError('set MCP_AUTH_JWKS_FILE or MCP_AUTH_JWKS_URL, not both.');
  return {
    verifier: jwtVerifier({ issuer: issuer!, audience: audience!, jwks: jwksUrl ?? readJwks(jwksFile!) }),
    resource: env.MCP_AUTH_RESOURCE?.trim() || audience!,
    authorizationServers: [issuer!],
    ...(options.resourceName ? { resourceName: options.resourceName } : {})
  };
}

function readJwks(path: string): JSONWebKeySet {
  let parsed: unknown;
  try {
    // `node:fs` only for MCP_AUTH_JWKS_FILE: `/advanced` loads this module, and a Worker has no files.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
    const { readFileSync } = require('node:fs') as typeof import('node:fs');
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigurationError(`MCP_AUTH_JWKS_FILE ${path} could not be read as JSON: ${(error as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || !Array.isArray((parsed as JSONWebKeySet).keys))
    throw new ConfigurationError(`MCP_AUTH_JWKS_FILE ${path} is not a JWKS (an object with a "keys" list).`);
  return parsed as JSONWebKeySet;
}
