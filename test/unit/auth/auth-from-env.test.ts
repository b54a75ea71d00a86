/**
 * `authFromEnv`: the one reader of the MCP_AUTH_* variables (`mcpfusion serve` and the sample app
 * use it). A real JWKS file and a real token: the verifier it builds accepts the issuer's token.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError } from '../../../src';
import { authFromEnv } from '../../../src/advanced';
import { AUDIENCE, ISSUER, JwksServer, jwksOf, mintToken, signingKey, type SigningKey } from '../../helpers/auth-fixtures';

let key: SigningKey;
let dir: string;
let jwksFile: string;

beforeAll(async () => {
  key = await signingKey('env-key');
  dir = mkdtempSync(join(tmpdir(), 'auth-env-'));
  jwksFile = join(dir, 'jwks.json');
  writeFileSync(jwksFile, JSON.stringify(jwksOf(key)));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('authFromEnv', () => {
  it('none of the variables: undefined (the server runs open)', () => {
    expect(authFromEnv({})).toBeUndefined();
    expect(authFromEnv({ MCP_AUTH_ISSUER: '  ', MCP_AUTH_RESOURCE: 'https://x.test/mcp' })).toBeUndefined();
  });

  it('issuer, audience and a JWKS file: the options, with a verifier that accepts the issuer’s token', async () => {
    const auth = authFromEnv({ MCP_AUTH_ISSUER: ISSUER, MCP_AUTH_AUDIENCE: ` ${AUDIENCE} `, MCP_AUTH_JWKS_FILE: jwksFile });
    expect(auth).toMatchObject({ resource: AUDIENCE, authorizationServers: [ISSUER] });
    expect(auth).not.toHaveProperty('resourceName');
    const info = await auth!.verifier.verifyAccessToken(await mintToken(key, { sub: 'clerk', scope: 'billing:read' }));
    expect(info.scopes).toEqual(['billing:read']);
  });

  it('MCP_AUTH_RESOURCE is the advertised resource; resourceName is the one given', () => {
    const auth = authFromEnv(
      { MCP_AUTH_ISSUER: ISSUER, MCP_AUTH_AUDIENCE: AUDIENCE, MCP_AUTH_JWKS_FILE: jwksFile, MCP_AUTH_RESOURCE: 'https://public.test/mcp' },
      { resourceName: 'Desk' }
    );
    expect(auth).toMatchObject({ resource: 'https://public.test/mcp', resourceName: 'Desk' });
  });

  it('a JWKS URL: fetched by the verifier', async () => {
    const server = await new JwksServer(jwksOf(key)).start();
    try {
      const auth = authFromEnv({ MCP_AUTH_ISSUER: ISSUER, MCP_AUTH_AUDIENCE: AUDIENCE, MCP_AUTH_JWKS_URL: server.url.toString() });
      const info = await auth!.verifier.verifyAccessToken(await mintToken(key, { sub: 'clerk', scope: 'billing:read' }));
      expect(info.scopes).toEqual(['billing:read']);
      expect(server.hits).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('half configured, both JWKS variables, or a file that is no JWKS: a ConfigurationError that says the fix', () => {
    const refusal = (env: NodeJS.ProcessEnv): unknown => {
      try {
        authFromEnv(env);
      } catch (error) {
        return error;
      }
      throw new Error('no error');
    };
    const half = refusal({ MCP_AUTH_AUDIENCE: AUDIENCE });
    expect(half).toBeInstanceOf(ConfigurationError);
    expect((half as Error).message).toBe(
      'auth is half configured: set MCP_AUTH_ISSUER, MCP_AUTH_JWKS_FILE or MCP_AUTH_JWKS_URL as well (or none of the MCP_AUTH_* variables to run open).'
    );
    expect(
      refusal({
        MCP_AUTH_ISSUER: ISSUER,
        MCP_AUTH_AUDIENCE: AUDIENCE,
        MCP_AUTH_JWKS_FILE: jwksFile,
        MCP_AUTH_JWKS_URL: 'https://x.test/jwks'
      })
    ).toMatchObject({ message: 'set MCP_AUTH_JWKS_FILE or MCP_AUTH_JWKS_URL, not both.' });
    const notJwks = join(dir, 'not-jwks.json');
    writeFileSync(notJwks, '{"keys": 3}');
    expect(refusal({ MCP_AUTH_ISSUER: ISSUER, MCP_AUTH_AUDIENCE: AUDIENCE, MCP_AUTH_JWKS_FILE: notJwks })).toMatchObject({
      message: `MCP_AUTH_JWKS_FILE ${notJwks} is not a JWKS (an object with a "keys" list).`
    });
    expect(refusal({ MCP_AUTH_ISSUER: ISSUER, MCP_AUTH_AUDIENCE: AUDIENCE, MCP_AUTH_JWKS_FILE: join(dir, 'missing.json') })).toMatchObject({
      message: expect.stringMatching(/^MCP_AUTH_JWKS_FILE .*missing\.json could not be read as JSON: /)
    });
  });

  it('resourceName is advertised as given (how mcpfusion serve names its gateway)', () => {
    expect(authFromEnv({}, { resourceName: 'Gateway to x' })).toBeUndefined();
    expect(
      authFromEnv({ MCP_AUTH_ISSUER: ISSUER, MCP_AUTH_AUDIENCE: AUDIENCE, MCP_AUTH_JWKS_FILE: jwksFile }, { resourceName: 'Gateway to x' })
    ).toMatchObject({
      resource: AUDIENCE,
      authorizationServers: [ISSUER],
      resourceName: 'Gateway to x'
    });
  });
});
