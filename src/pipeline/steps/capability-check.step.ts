import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { MissingCapabilityError } from '../../errors';
import { namedCheck, type NamedStep } from './named-step';

/**
 * A member that declares `requires` runs only for clients that declared those capabilities
 * (where the connection says what the client declared); otherwise the call is refused with the
 * protocol's missing-capability error (-32021) before it takes a queue slot or runs any middleware.
 */
export function capabilityCheckStep(name: string, required: ClientCapabilities): NamedStep {
  const keys = Object.keys(required);
  return namedCheck('capability-check', (state, next) => {
    const declared = state.request.clientCapabilities as Record<string, unknown> | undefined;
    if (declared) {
      const missing = keys.filter((key) => declared[key] === undefined);
      if (missing.length > 0) {
        throw new MissingCapabilityError(name, Object.fromEntries(missing.map((key) => [key, (required as Record<string, unknown>)[key]])));
      }
    }
    return next(state);
  });
}
