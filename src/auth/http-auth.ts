import {
  OAuthError,
  OAuthErrorCode,
  bearerAuthChallengeResponse,
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
  verifyBearerToken,
  type AuthInfo,
  type OAuthProtectedResourceMetadata,
  type OAuthTokenVerifier
} from '@modelcontextprotocol/server';
import { ConfigurationError } from '../errors';
import { isPlainJsonObject } from '../wire/own-properties';
import { MAX_TOKEN_CHARS } from './jwt-verifier';
import { isScopeToken, missingScopes, scopesOption } from './scopes';

/** The app option `auth`: the HTTP endpoint as an OAuth 2.1 resource server. */
export interface AuthOptions {
  /**
   * Verifies a bearer token and says who it belongs to and what it grants (`jwtVerifier(…)`, or
   * your own: token introspection, an identity provider's SDK). It must check the token was
   * issued for this server (its audience); a refusal is an `OAuthError` (`invalid_token`).
   */
  verifier: OAuthTokenVerifier;
  /** This server's public URL (its RFC 8707 resource identifier), e.g. `https://billing.example.com/mcp`. */
  resource: string | URL;
  /** The issuer URLs of the authorization servers clients get tokens from (RFC 9728 `authorization_servers`). */
  authorizationServers: readonly string[];
  /** Scopes every request needs, whatever it calls. */
  requiredScopes?: readonly string[];
  /**
   * `'all'` (default): lists show every tool, resource and prompt; one the token does not allow
   * is refused when called (403, so the client can step up). `'allowed'`: lists show only what
   * the caller's scopes allow. Either way nothing is run without its scopes.
   */
  listing?: 'all' | 'allowed';
  /** A name for people, advertised as `resource_name`. */
  resourceName?: string;
  /** Where the server is documented, advertised as `resource_documentation`. */
  documentationUrl?: string;
  /** Accept `http:` authorization server URLs off loopback. Local testing only. */
  dangerouslyAllowInsecureIssuerUrl?: boolean;
}

/** A JSON-RPC request as the HTTP entry read it (untrusted). */
export interface WireRequest {
  readonly method: string;
  readonly params?: unknown;
}

/** What the HTTP entry asks of the app: the scopes a request needs (none: undefined). */
export type ScopesOfRequest = (request: WireRequest) => readonly string[] | undefined;

/** Which lists a caller can see anything of (with `auth.listing: 'allowed'`, the kinds where some member is allowed). */
export type ListsVisibleTo = (auth: AuthInfo) => { readonly tools: boolean; readonly resources: boolean; readonly prompts: boolean };

/** The resource-server side of the HTTP endpoint, built once from `AuthOptions`. */
export interface HttpAuthGate {
  /** The RFC 9728 document, for requests to its well-known paths (undefined for any other path). */
  metadata(request: Request, pathname: string): Response | undefined;
  /** The verified token of a request to the endpoint, or the 401/403 (or 500) answer refusing it. */
  authenticate(request: Request, url: URL): Promise<AuthInfo | Response>;
  /**
   * The 403 `insufficient_scope` answer when a request of the body needs scopes the token lacks.
   * A 2026-07-28 `subscriptions/listen` is narrowed instead (in the parsed body, before any
   * server reads it): resource subscriptions for URIs the caller may not read, and list-changed
   * subscriptions for lists the caller can see nothing of, are left out, so the acknowledgement
   * names only what is honoured (the spec's listen semantics) and nothing else is ever sent on it.
   */
  authorize(body: unknown, auth: AuthInfo): Response | undefined;
}

/** RFC 6750 `b64token`, the only form a bearer credential takes. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * Builds the gate: checks the options (a ConfigurationError names what is wrong), builds the
 * protected resource metadata once, and uses the SDK's bearer helpers for verification and for
 * every challenge (`WWW-Authenticate` with `resource_metadata`, and `scope` where it helps).
 */
export function createHttpAuthGate(
  options: AuthOptions,
  declaredScopes: readonly string[],
  scopesOf: ScopesOfRequest,
  listsVisibleTo: ListsVisibleTo = () => ({ tools: true, resources: true, prompts: true })
): HttpAuthGate {
  if (!options || typeof options.verifier?.verifyAccessToken !== 'function') {
    throw new ConfigurationError(
      'auth.verifier is required: jwtVerifier({ issuer, audience, jwks }) or an object with verifyAccessToken(token).'
    );
  }
  const resource = urlOption('auth.resource', options.resource);
  const problems: string[] = [];
  const requiredScopes = scopesOption('auth.requiredScopes', options.requiredScopes, problems) ?? [];
  if (problems.length > 0) throw new ConfigurationError(problems.join(' '));
  const servers = options.authorizationServers;
  if (!Array.isArray(servers) || servers.length === 0) {
    throw new ConfigurationError('auth.authorizationServers must list the issuer URL of at least one authorization server.');
  }
  const scopesSupported = [...new Set([...requiredScopes, ...declaredScopes])].sort();
  const metadata = protectedResourceMetadata(options, resource, servers, scopesSupported);
  const metadataUrl = getOAuthProtectedResourceMetadataUrl(resource);
  const metadataPaths = new Set(['/.well-known/oauth-protected-resource', new URL(metadataUrl).pathname]);
  const body = JSON.stringify(metadata);
  const refuse = (description: string): Response =>
    bearerAuthChallengeResponse(new OAuthError(OAuthErrorCode.InvalidToken, description), {
      requiredScopes: [...requiredScopes],
      resourceMetadataUrl: metadataUrl
    });

  return {
    metadata(request, pathname) {
      if (!metadataPaths.has(pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname)) return undefined;
      const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS' };
      if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: cors });
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return Response.json(new OAuthError(OAuthErrorCode.MethodNotAllowed, `${request.method} is not allowed here`).toResponseObject(), {
          status: 405,
          headers: { ...cors, Allow: 'GET, HEAD, OPTIONS' }
        });
      }
      return new Response(request.method === 'HEAD' ? null : body, {
        status: 200,
        headers: { ...cors, 'Content-Type': 'application/json', 'Cache-Control': 'max-age=3600' }
      });
    },

    async authenticate(request, url) {
      // OAuth 2.1 forbids tokens in the URL (they end up in logs): refused even beside a valid header.
      if (url.searchParams.has('access_token'))
        return refuse('Access tokens are not accepted in the query string; send an Authorization header');
      const header = request.headers.get('authorization');
      if (header !== null) {
        if (header.length > MAX_TOKEN_CHARS + 7) return refuse('The access token is too long');
        const [scheme, token, ...rest] = header.split(' ');
        if (scheme?.toLowerCase() !== 'bearer' || !token || rest.length > 0 || !B64TOKEN.test(token)) {
          return refuse("Invalid Authorization header format, expected 'Bearer TOKEN'");
        }
      }
      try {
        return await verifyBearerToken(header, {
          verifier: options.verifier,
          requiredScopes: [...requiredScopes],
          resourceMetadataUrl: metadataUrl
        });
      } catch (error) {
        if (error instanceof OAuthError)
          return bearerAuthChallengeResponse(error, { requiredScopes: [...requiredScopes], resourceMetadataUrl: metadataUrl });
        // A verifier that failed by itself (not a refusal): the client's token is not to blame.
        return bearerAuthChallengeResponse(new OAuthError(OAuthErrorCode.ServerError, 'The access token could not be verified'));
      }
    },

    authorize(payload, auth) {
      const messages = Array.isArray(payload) ? payload : [payload];
      for (const message of messages) {
        if (!isPlainJsonObject(message)) continue;
        const { method, params } = message as { method?: unknown; params?: unknown };
        if (typeof method !== 'string' || !('id' in (message as object))) continue;
        if (method === 'subscriptions/listen') {
          narrowListen(params, auth, scopesOf, listsVisibleTo);
          continue;
        }
        const needed = scopesOf({ method, params });
        if (!needed || needed.length === 0) continue;
        if (missingScopes(needed, auth.scopes).length === 0) continue;
        const challenge = [...new Set([...requiredScopes, ...needed])];
        return bearerAuthChallengeResponse(
          new OAuthError(OAuthErrorCode.InsufficientScope, `This request needs the scope ${challenge.join(' ')}`),
          {
            requiredScopes: challenge,
            resourceMetadataUrl: metadataUrl
          }
        );
      }
      return undefined;
    }
  };
}

function urlOption(name: string, value: unknown): URL {
  try {
    const url = new URL(String(value));
    if (url.protocol === 'https:' || url.protocol === 'http:') {
      url.hash = '';
      return url;
    }
  } catch {
    // reported below
  }
  throw new ConfigurationError(`${name} must be this server's absolute http(s) URL (got ${JSON.stringify(String(value))}).`);
}

/** The RFC 9728 document: the SDK's builder checks each issuer URL (https off loopback); every server is listed. */
function protectedResourceMetadata(
  options: AuthOptions,
  resource: URL,
  servers: readonly string[],
  scopesSupported: readonly string[]
): OAuthProtectedResourceMetadata {
  const issuers = servers.map((server) => {
    urlOption('auth.authorizationServers', server);
    // An issuer identifier is compared exactly (RFC 8414): advertised as written.
    const issuer = String(server);
    try {
      buildOAuthProtectedResourceMetadata({
        oauthMetadata: { issuer, authorization_endpoint: issuer, token_endpoint: issuer, response_types_supported: ['code'] },
        resourceServerUrl: resource,
        ...(options.dangerouslyAllowInsecureIssuerUrl ? { dangerouslyAllowInsecureIssuerUrl: true } : {})
      });
    } catch (error) {
      throw new ConfigurationError(`auth.authorizationServers: ${issuer} is not accepted (${(error as Error).message}).`);
    }
    return issuer;
  });
  if (scopesSupported.some((scope) => !isScopeToken(scope))) throw new ConfigurationError('auth: a declared scope is not an OAuth scope.');
  return {
    resource: resource.href,
    authorization_servers: issuers,
    ...(scopesSupported.length > 0 ? { scopes_supported: [...scopesSupported] } : {}),
    bearer_methods_supported: ['header'],
    ...(options.resourceName ? { resource_name: options.resourceName } : {}),
    ...(options.documentationUrl ? { resource_documentation: urlOption('auth.documentationUrl', options.documentationUrl).href } : {})
  };
}

/** Leaves out of a listen what the caller may not follow (see `HttpAuthGate.authorize`). */
function narrowListen(params: unknown, auth: AuthInfo, scopesOf: ScopesOfRequest, listsVisibleTo: ListsVisibleTo): void {
  const notifications = isPlainJsonObject(params) ? (params as { notifications?: unknown }).notifications : undefined;
  if (!isPlainJsonObject(notifications)) return;
  const filter = notifications as Record<string, unknown>;
  const readable = (uri: unknown): boolean => {
    if (typeof uri !== 'string') return false;
    const needed = scopesOf({ method: 'resources/read', params: { uri } });
    return !needed || missingScopes(needed, auth.scopes).length === 0;
  };
  if (Array.isArray(filter.resourceSubscriptions)) filter.resourceSubscriptions = filter.resourceSubscriptions.filter(readable);
  const visible = listsVisibleTo(auth);
  if (!visible.tools) delete filter.toolsListChanged;
  if (!visible.resources) delete filter.resourcesListChanged;
  if (!visible.prompts) delete filter.promptsListChanged;
}
