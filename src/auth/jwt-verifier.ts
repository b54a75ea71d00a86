import type { AuthInfo, OAuthError, OAuthTokenVerifier } from '@modelcontextprotocol/server';
import { serverSdk } from '../wire/server-sdk';
import type { JSONWebKeySet as JoseKeySet, JWTPayload, JWTVerifyGetKey } from 'jose' with { 'resolution-mode': 'import' };
import { ConfigurationError } from '../errors';
import { isScopeToken } from './scopes';

type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });

/** A JSON Web Key Set (RFC 7517): the authorization server's public keys. */
export interface JSONWebKeySet {
  /** The public keys, as JWK objects; a token's key is picked by its header's `kid` and `alg`. */
  readonly keys: ReadonlyArray<Readonly<Record<string, unknown>>>;
}

/** Options of {@link jwtVerifier}. */
export interface JwtVerifierOptions {
  /** The `iss` a token must carry (the authorization server's issuer identifier); several are allowed. */
  issuer: string | readonly string[];
  /** The `aud` a token must carry: this server's resource identifier (usually its URL). */
  audience: string | readonly string[];
  /**
   * The authorization server's public keys: a JWKS URL (fetched on first use, cached, and
   * fetched again when a token names a key id it does not hold: rotation), or a JWKS itself.
   * A URL must be `https:` unless it is on a loopback host.
   */
  jwks: string | URL | JSONWebKeySet;
  /** Signature algorithms accepted. Default `['RS256', 'PS256', 'ES256', 'EdDSA']`. `none` and the HMAC family are refused. */
  algorithms?: readonly string[];
  /**
   * Leeway for `exp` and `nbf`, in seconds. Default 5. A token is accepted until `exp` plus
   * this leeway (its `AuthInfo.expiresAt` says so; `claims.exp` keeps the token's own).
   */
  clockToleranceSeconds?: number;
  /**
   * Accept only tokens typed `at+jwt` (RFC 9068 §2.1). Default `false`: `at+jwt`, and tokens with
   * no `typ` or `typ: JWT` (which common identity providers issue as access tokens), are
   * accepted; any other type (`logout+jwt`, `secevent+jwt`, `dpop+jwt`, an ID token's…) is
   * refused either way (RFC 9068 §4): those JWTs are not access tokens.
   */
  requireAccessTokenType?: boolean;
  /** How long fetched keys are used before they are fetched again, in ms. Default 600,000 (10 minutes). */
  jwksCacheMaxAgeMs?: number;
  /** The least time between two fetches caused by unknown key ids, in ms. Default 30,000. */
  jwksCooldownMs?: number;
  /** How long a JWKS fetch may take, in ms. Default 5,000. */
  jwksTimeoutMs?: number;
}

/** The longest access token looked at; anything longer is refused unread. */
export const MAX_TOKEN_CHARS = 16 * 1024;

const DEFAULT_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];
const ASYMMETRIC = /^(RS|PS|ES)(256|384|512)$|^ES256K$|^EdDSA$|^Ed25519$/;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

let jose: Jose | undefined;

/** jose is ESM only; it is loaded on first use (Node 20.19+ `require` of ES modules), so an app without auth never loads it. */
function loadJose(): Jose {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
  return (jose ??= require('jose') as Jose);
}

/**
 * A token verifier for JWT access tokens (RFC 9068 style) signed by an authorization server:
 * checks the signature against the server's JWKS, the issuer, the audience, `exp` (required)
 * and `nbf`, and maps the claims to the SDK's `AuthInfo`: `scopes` from `scope` (or `scp`),
 * `clientId` from `client_id` (or `azp`, or `sub`), `expiresAt` from `exp`, and in `extra`
 * the `subject` (`sub`) and every `claims`. A refusal is an `OAuthError` (`invalid_token`,
 * answered 401) whose description names what failed and never repeats the token.
 */
export function jwtVerifier(options: JwtVerifierOptions): OAuthTokenVerifier {
  const issuer = listOption('issuer', options?.issuer);
  const audience = listOption('audience', options?.audience);
  const algorithms = [...(options.algorithms ?? DEFAULT_ALGORITHMS)];
  if (algorithms.length === 0) throw new ConfigurationError('jwtVerifier: algorithms must name at least one signature algorithm.');
  const refused = algorithms.filter((alg) => typeof alg !== 'string' || !ASYMMETRIC.test(alg));
  if (refused.length > 0) {
    throw new ConfigurationError(
      `jwtVerifier: ${refused.map(String).join(', ')} cannot be accepted: only asymmetric signature algorithms (RS*, PS*, ES*, EdDSA) are, never "none" or a shared secret.`
    );
  }
  const clockTolerance = options.clockToleranceSeconds ?? 5;
  if (!Number.isFinite(clockTolerance) || clockTolerance < 0 || clockTolerance > 300) {
    throw new ConfigurationError('jwtVerifier: clockToleranceSeconds must be between 0 and 300.');
  }
  const keys = keySetOf(options);
  const strictType = options.requireAccessTokenType === true;

  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      if (typeof token !== 'string' || token.length > MAX_TOKEN_CHARS) throw invalidToken('The access token is too long');
      const lib = loadJose();
      let payload: JWTPayload;
      let typ: unknown;
      try {
        ({
          payload,
          protectedHeader: { typ }
        } = await lib.jwtVerify(token, keys(), {
          issuer: issuer.length === 1 ? issuer[0] : issuer,
          audience: audience.length === 1 ? audience[0] : audience,
          algorithms,
          clockTolerance,
          requiredClaims: ['exp']
        }));
      } catch (error) {
        throw refusalOf(error, lib);
      }
      if (!acceptedType(typ, strictType)) {
        throw invalidToken(
          strictType
            ? 'The token is not typed as an access token (typ at+jwt)'
            : 'The token is not an access token (its typ says another kind of JWT)'
        );
      }
      return authInfoOf(token, payload, clockTolerance);
    }
  };

  function keySetOf(opts: JwtVerifierOptions): () => JWTVerifyGetKey {
    const source = opts.jwks;
    if (typeof source === 'string' || source instanceof URL) {
      const url = checkedJwksUrl(source);
      let remote: JWTVerifyGetKey | undefined;
      return () =>
        (remote ??= loadJose().createRemoteJWKSet(url, {
          cacheMaxAge: durationOption('jwksCacheMaxAgeMs', opts.jwksCacheMaxAgeMs, 600_000),
          cooldownDuration: durationOption('jwksCooldownMs', opts.jwksCooldownMs, 30_000),
          timeoutDuration: durationOption('jwksTimeoutMs', opts.jwksTimeoutMs, 5_000)
        }));
    }
    if (!source || typeof source !== 'object' || !Array.isArray((source as JSONWebKeySet).keys)) {
      throw new ConfigurationError('jwtVerifier: jwks must be a JWKS URL or a JWKS object ({ keys: [...] }).');
    }
    const privateMembers = (source as JSONWebKeySet).keys.filter((key) => key && typeof key === 'object' && ('d' in key || 'k' in key));
    if (privateMembers.length > 0) {
      throw new ConfigurationError('jwtVerifier: the JWKS holds private or symmetric key material (d or k): give it the public keys only.');
    }
    let local: JWTVerifyGetKey | undefined;
    return () => (local ??= loadJose().createLocalJWKSet(source as unknown as JoseKeySet));
  }
}

function listOption(name: string, value: string | readonly string[] | undefined): string[] {
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? [...value] : [];
  if (list.length === 0 || list.some((item) => typeof item !== 'string' || item.trim() === '')) {
    throw new ConfigurationError(`jwtVerifier: ${name} is required (a non-empty string, or a list of them).`);
  }
  return list;
}

function durationOption(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0)
    throw new ConfigurationError(`jwtVerifier: ${name} must be a whole number of milliseconds ≥ 0.`);
  return value;
}

function checkedJwksUrl(source: string | URL): URL {
  let url: URL;
  try {
    url = new URL(String(source));
  } catch {
    throw new ConfigurationError(`jwtVerifier: jwks ${JSON.stringify(String(source))} is not a URL.`);
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) return url;
  throw new ConfigurationError(
    `jwtVerifier: the JWKS URL must use https: (plain http is allowed on loopback hosts only; got ${url.origin}).`
  );
}

function invalidToken(description: string): OAuthError {
  const { OAuthError, OAuthErrorCode } = serverSdk();
  return new OAuthError(OAuthErrorCode.InvalidToken, description);
}

/** What a verification failure tells the client: the check that failed, in fixed words (nothing of the token). */
function refusalOf(error: unknown, lib: Jose): OAuthError {
  const { errors } = lib;
  if (error instanceof errors.JWTExpired) return invalidToken('The access token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'nbf':
        return invalidToken('The access token is not valid yet (nbf)');
      case 'iss':
        return invalidToken('The access token was issued by an issuer this server does not trust');
      case 'aud':
        return invalidToken('The access token was not issued for this server (audience)');
      case 'exp':
        return invalidToken('The access token has no valid expiry (exp)');
      default:
        return invalidToken(`The access token's ${error.claim === 'iat' ? 'iat' : 'claims'} are not valid`);
    }
  }
  if (error instanceof errors.JOSEAlgNotAllowed)
    return invalidToken('The access token is signed with an algorithm this server does not accept');
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return invalidToken('The access token is signed with a key this server does not know');
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return invalidToken('The access token signature is not valid');
  // jose raises its own typed errors for everything about the token; anything else (a fetch that
  // failed, a JWKS that timed out, answered other than 200 or is not a JWKS) is about the keys.
  if (
    error instanceof errors.JWKSTimeout ||
    error instanceof errors.JWKSInvalid ||
    !(error instanceof errors.JOSEError) ||
    (error as { code?: string }).code === 'ERR_JOSE_GENERIC' // a JWKS response that was not 200
  ) {
    // Not the token's fault: the keys could not be had. The client must not throw its token away.
    const { OAuthError, OAuthErrorCode } = serverSdk();
    return new OAuthError(OAuthErrorCode.ServerError, 'The authorization server keys could not be fetched');
  }
  return invalidToken('The access token is malformed');
}

/**
 * Whether a token's `typ` header says it is an access token: `at+jwt` (or its media type form,
 * RFC 8725 §3.11: compared without case and without an `application/` prefix), and unless
 * strict, no `typ` or `JWT`.
 */
function acceptedType(typ: unknown, strict: boolean): boolean {
  if (typ === undefined) return !strict;
  if (typeof typ !== 'string') return false;
  const kind = typ.toLowerCase().replace(/^application\//, '');
  return kind === 'at+jwt' || (!strict && kind === 'jwt');
}

/** The SDK's `AuthInfo` from verified claims; `expiresAt` is when this server stops accepting it (`exp` plus the leeway). */
function authInfoOf(token: string, payload: JWTPayload, clockTolerance: number): AuthInfo {
  const subject = typeof payload.sub === 'string' ? payload.sub : undefined;
  const clientId = stringClaim(payload, 'client_id') ?? stringClaim(payload, 'azp') ?? subject ?? '';
  return {
    token,
    clientId,
    scopes: scopesOf(payload),
    expiresAt: payload.exp === undefined ? undefined : payload.exp + clockTolerance,
    extra: { ...(subject !== undefined ? { subject } : {}), claims: Object.freeze({ ...payload }) }
  };
}

function stringClaim(payload: JWTPayload, name: string): string | undefined {
  const value = (payload as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `scope` (space-delimited, RFC 9068) or `scp` (a list or a string, as some servers issue); only well-formed scope tokens. */
function scopesOf(payload: JWTPayload): string[] {
  const raw = (payload as Record<string, unknown>).scope ?? (payload as Record<string, unknown>).scp;
  const list = typeof raw === 'string' ? raw.split(' ') : Array.isArray(raw) ? raw : [];
  return [...new Set(list.filter(isScopeToken))];
}
