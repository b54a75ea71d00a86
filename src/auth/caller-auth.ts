import type { AuthInfo } from '@modelcontextprotocol/server';
import type { CallerAuth } from '../types/context';

export type { CallerAuth } from '../types/context';

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
 * The default caller identity continuations are bound to: the token's subject, else its client
 * id; none without a token (stdio, the harness without `authInfo`).
 */
export function defaultPrincipalOf(info: AuthInfo | undefined): string | undefined {
  if (!info) return undefined;
  return subjectOf(info) ?? (info.clientId || undefined);
}
