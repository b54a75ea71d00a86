import { missingScopes } from '../../auth/scopes';
import { InsufficientScopeError } from '../../errors';
import { namedCheck, type NamedStep } from './named-step';

/**
 * A member that declares `scopes` runs only for a caller whose verified token grants them all:
 * the first stage inside the error boundary, so a refused call takes no queue slot and runs no
 * middleware or handler.
 * A call without a token (stdio, the harness without `authInfo`) is not checked: over HTTP with
 * `auth` every request has one, and the endpoint answers 403 before the chain is reached.
 */
export function scopeCheckStep(label: string, scopes: readonly string[]): NamedStep {
  return namedCheck('scope-check', (state, next) => {
    const auth = state.request.authInfo;
    if (auth) {
      const missing = missingScopes(scopes, auth.scopes);
      if (missing.length > 0) throw new InsufficientScopeError(label, scopes, missing);
    }
    return next(state);
  });
}
