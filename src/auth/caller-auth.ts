import type { AuthInfo } from '@modelcontextprotocol/server';
import type { CallerAuth } from '../types/context';

const views = new WeakMap<AuthInfo, CallerAuth>();
const NO_CLAIMS: Readonly<Record<string, unknown>> = Object.freeze({});

/** The caller's view of a verified token (made once per token object). */
export function callerAuthOf(info: AuthInfo | undefined): CallerAuth | undefined {
  if (!info) return undefined;
  let view = views.get(info);
  if (view) return view;
  const subject = subjectOf(info);
  const claims = info.extra?.claims;
  view = Object.freeze({
    ...(subject !== undefined ? { subject } : {}),
    clientId: info.clientId,
    scopes: Object.freeze([...info.scopes]),
    ...(info.expiresAt !== undefined ? { expiresAt: info.expiresAt } : {}),
    claims: claims && typeof claims === 'object' ? (claims as Readonly<Record<string, unknown>>) : NO_CLAIMS,
    ...(info.resource ? { resource: info.resource } : {})
  });
  views.set(info, view);
  return view;
}

/** The subject a verifier reported (`extra.subject`, as `jwtVerifier` sets it). */
function subjectOf(info: AuthInfo): string | undefined {
  const subject = info.extra?.subject;
  return typeof subject === 'string' && subject !== '' ? subject : undefined;
}

/**
 * The default caller identity continuations, tasks and sessions are bound to, in two
 * namespaces that never meet: `user:<sub>` for a token issued to a person (a subject other than
 * the client it was issued to), `client:<client id>` for a machine client (a token without a
 * subject, or whose subject is the client itself, as client-credentials tokens have). So a
 * client whose id equals a user's subject is never that user. None without a token (stdio, the
 * harness without `authInfo`).
 */
export function defaultPrincipalOf(info: AuthInfo | undefined): string | undefined {
  if (!info) return undefined;
  const subject = subjectOf(info);
  const claims = info.extra?.claims as Record<string, unknown> | undefined;
  // The client the token was issued to, as the token says it (a JWT's client_id or azp; else the verifier's clientId).
  const issuedTo = claims ? (textClaim(claims, 'client_id') ?? textClaim(claims, 'azp')) : info.clientId || undefined;
  if (subject !== undefined && subject !== issuedTo) return `user:${subject}`;
  const client = issuedTo ?? subject ?? (info.clientId || undefined);
  return client === undefined ? undefined : `client:${client}`;
}

function textClaim(claims: Record<string, unknown>, name: string): string | undefined {
  const value = claims[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
