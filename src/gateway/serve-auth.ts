import { readFileSync } from 'node:fs';
import type { AuthOptions } from '../auth/http-auth';
import { jwtVerifier, type JSONWebKeySet } from '../auth/jwt-verifier';
import { ConfigurationError } from '../errors';

/**
 * `mcpfusion serve`'s authorization, from the variables the sample app reads
 * (sample-app/auth-config.ts): MCP_AUTH_ISSUER, MCP_AUTH_AUDIENCE, MCP_AUTH_JWKS_FILE or
 * MCP_AUTH_JWKS_URL, and MCP_AUTH_RESOURCE (default: the audience). None set: undefined (open,
 * for 127.0.0.1 only); some but not all: an error naming what is missing.
 */
export function gatewayAuthFromEnv(env: NodeJS.ProcessEnv, resourceName: string): AuthOptions | undefined {
  const issuer = env.MCP_AUTH_ISSUER?.trim();
  const audience = env.MCP_AUTH_AUDIENCE?.trim();
  const jwksFile = env.MCP_AUTH_JWKS_FILE?.trim();
  const jwksUrl = env.MCP_AUTH_JWKS_URL?.trim();
  if (!issuer && !audience && !jwksFile && !jwksUrl) return undefined;
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
    resourceName
  };
}

function readJwks(path: string): JSONWebKeySet {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigurationError(`MCP_AUTH_JWKS_FILE ${path} could not be read as JSON: ${(error as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || !Array.isArray((parsed as JSONWebKeySet).keys))
    throw new ConfigurationError(`MCP_AUTH_JWKS_FILE ${path} is not a JWKS (an object with a "keys" list).`);
  return parsed as JSONWebKeySet;
}
