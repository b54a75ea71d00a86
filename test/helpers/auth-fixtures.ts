/**
 * Real keys and real tokens for the authorization tests: key pairs generated with jose, JWTs
 * signed with them, and a JWKS served over real HTTP on 127.0.0.1 (its keys can be changed to
 * show rotation; its hits are counted to show caching).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JWK, JWTPayload } from 'jose' with { 'resolution-mode': 'import' };

type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });
// jose is ESM only: loaded with require() (Node 20.19+; jest transpiles it, see jest.config.js), as src/auth does.
const { SignJWT, exportJWK, generateKeyPair } = require('jose') as Jose;

/** The issuer every test token names (never contacted: the keys come from the JWKS below). */
export const ISSUER = 'https://auth.example.test';
/** The audience (this server's resource identifier) every test token names. */
export const AUDIENCE = 'https://billing.example.test/mcp';

/** A signing key: its private half signs tokens, its public JWK goes into a JWKS. */
export interface SigningKey {
  readonly kid: string;
  readonly alg: 'ES256' | 'RS256';
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
}

export async function signingKey(kid: string, alg: 'ES256' | 'RS256' = 'ES256'): Promise<SigningKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, alg, privateKey, publicJwk };
}

/** A JWKS of the public halves. */
export function jwksOf(...keys: SigningKey[]): { keys: JWK[] } {
  return { keys: keys.map((key) => key.publicJwk) };
}

/** Claims of a test token; `exp` defaults to an hour from now, `false` leaves it out. */
export interface TokenClaims extends Omit<JWTPayload, 'exp'> {
  scope?: string;
  exp?: number | false;
  client_id?: string;
}

/** A signed access token: issuer and audience as above unless overridden. */
export async function mintToken(
  key: SigningKey,
  claims: TokenClaims = {},
  header: { kid?: string | false; alg?: string; typ?: string | false } = {}
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const { exp, ...rest } = claims;
  const payload: JWTPayload = {
    iss: ISSUER,
    aud: AUDIENCE,
    iat: now,
    client_id: 'test-client',
    ...rest,
    ...(exp === false ? {} : { exp: exp ?? now + 3600 })
  };
  const protectedHeader: { alg: string; kid?: string; typ?: string } = { alg: header.alg ?? key.alg };
  if (header.typ !== false) protectedHeader.typ = header.typ ?? 'at+jwt';
  if (header.kid !== false) protectedHeader.kid = header.kid ?? key.kid;
  return new SignJWT(payload).setProtectedHeader(protectedHeader).sign(key.privateKey);
}

/** An unsigned (`alg: none`) token with the given claims, as an attacker would craft it. */
export function unsignedToken(claims: JWTPayload): string {
  const b64 = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
}

/** A JWKS served over HTTP on 127.0.0.1. */
export class JwksServer {
  hits = 0;
  private keys: { keys: JWK[] };
  private server: Server | undefined;
  url!: URL;

  constructor(initial: { keys: JWK[] }) {
    this.keys = initial;
  }

  async start(): Promise<this> {
    this.server = createServer((_req, res) => {
      this.hits++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(this.keys));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = new URL(`http://127.0.0.1:${(this.server.address() as AddressInfo).port}/jwks.json`);
    return this;
  }

  /** What the next fetch returns (a rotation). */
  setKeys(keys: { keys: JWK[] }): void {
    this.keys = keys;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A fetch for SDK clients that sends `Authorization: Bearer <token>` (the token can be changed between calls). */
export function bearerFetch(token: () => string): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token()}`);
    return fetch(input, { ...init, headers });
  };
}
