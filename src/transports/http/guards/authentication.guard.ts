import type { AuthInfo } from '@modelcontextprotocol/server';
import type { HttpAuthGate } from '../../../auth/http-auth';
import type { EntryRequest } from '../entry-request';

/**
 * The authentication guard: the endpoint as an OAuth resource server, through the app's
 * `HttpAuthGate` (`src/auth/http-auth.ts`), which builds every answer (RFC 6750 challenges,
 * the RFC 9728 document). It owns when each is asked: the metadata for paths off the endpoint,
 * the bearer token once Host and Origin passed (401, or 500 when the verifier fails by itself),
 * and the scopes of what a read body calls (403 `insufficient_scope`) before any server is
 * built for it. Without `auth` there is no guard: the caller is the `authInfo` passed through.
 */
export interface AuthenticationGuard {
  /** The protected resource metadata for a request to one of its well-known paths, else undefined. */
  metadata(request: EntryRequest, pathname: string): Response | undefined;
  /** The verified token of a request to the endpoint, or the answer refusing it. */
  authenticate(request: EntryRequest): Promise<AuthInfo | Response>;
  /** The 403 when the body calls something that needs scopes the caller's token lacks (no token: nothing to check). */
  authorize(body: unknown, caller: AuthInfo | undefined): Response | undefined;
}

export function authenticationGuard(gate: HttpAuthGate): AuthenticationGuard {
  return {
    // The gate is the app's (user code may read the request): it gets the web `Request`.
    metadata: (request, pathname) => gate.metadata(request.web(), pathname),
    authenticate: (request) => {
      const web = request.web();
      return gate.authenticate(web, new URL(web.url));
    },
    authorize: (body, caller) => (caller ? gate.authorize(body, caller) : undefined)
  };
}
