#!/usr/bin/env node
// Development keys and tokens for trying the billing desk as a protected resource. NOT for
// production: a real deployment gets its tokens from an authorization server.
//
//   eval "$(node scripts/dev-auth.mjs env)"       makes a key pair once (.dev-auth/), exports MCP_AUTH_* and two tokens
//   npm start                                    the desk now needs bearer tokens
//
//   node scripts/dev-auth.mjs token billing:read [more scopes…] [--sub alice] [--ttl 3600]
//                                                prints one token with exactly those scopes
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SignJWT, exportJWK, generateKeyPair, importJWK } from 'jose';

const DIR = resolve(process.env.DEV_AUTH_DIR ?? '.dev-auth');
const ISSUER = 'https://dev-issuer.mcpfusion.invalid';
const AUDIENCE = process.env.MCP_AUTH_AUDIENCE ?? `http://127.0.0.1:${process.env.PORT ?? 3000}/mcp`;
const KID = 'dev-key-1';
const ALL_SCOPES = ['billing:read', 'billing:write', 'accounts:connect', 'reports:read'];

async function ensureKeys() {
  const privatePath = join(DIR, 'private-key.jwk.json');
  const jwksPath = join(DIR, 'jwks.json');
  if (!existsSync(privatePath)) {
    mkdirSync(DIR, { recursive: true, mode: 0o700 });
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    writeFileSync(privatePath, JSON.stringify({ ...(await exportJWK(privateKey)), kid: KID, alg: 'ES256' }), { mode: 0o600 });
    writeFileSync(jwksPath, JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: KID, alg: 'ES256', use: 'sig' }] }, null, 2));
  }
  return { privateKey: await importJWK(JSON.parse(readFileSync(privatePath, 'utf8')), 'ES256'), jwksPath };
}

async function mint(privateKey, scopes, sub, ttl) {
  return new SignJWT({ scope: scopes.join(' '), client_id: 'dev-client' })
    .setProtectedHeader({ alg: 'ES256', kid: KID, typ: 'at+jwt' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime(`${ttl}s`)
    .sign(privateKey);
}

function option(args, name, fallback) {
  const at = args.indexOf(name);
  if (at === -1) return fallback;
  const value = args[at + 1];
  args.splice(at, 2);
  return value;
}

const [command = 'env', ...args] = process.argv.slice(2);
const sub = option(args, '--sub', 'dev-user');
const ttl = Number(option(args, '--ttl', '3600'));
const { privateKey, jwksPath } = await ensureKeys();
if (command === 'env') {
  const quote = (value) => `'${value.replace(/'/g, "'\\''")}'`;
  process.stdout.write(
    [
      `export MCP_AUTH_ISSUER=${quote(ISSUER)}`,
      `export MCP_AUTH_AUDIENCE=${quote(AUDIENCE)}`,
      `export MCP_AUTH_JWKS_FILE=${quote(jwksPath)}`,
      `export READ_TOKEN=${quote(await mint(privateKey, ['billing:read'], sub, ttl))}`,
      `export ADMIN_TOKEN=${quote(await mint(privateKey, ALL_SCOPES, sub, ttl))}`,
      ''
    ].join('\n')
  );
} else if (command === 'token') {
  const unknown = args.filter((scope) => !ALL_SCOPES.includes(scope));
  if (unknown.length > 0) process.stderr.write(`note: the desk declares none of ${unknown.join(', ')}\n`);
  process.stdout.write(`${await mint(privateKey, args, sub, ttl)}\n`);
} else {
  process.stderr.write('usage: node scripts/dev-auth.mjs [env | token <scope>… [--sub name] [--ttl seconds]]\n');
  process.exitCode = 2;
}
