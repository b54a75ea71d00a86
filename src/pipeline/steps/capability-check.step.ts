import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { MissingCapabilityError } from '../../errors';
import { acceptsTasks } from '../../tasks/task-acceptance';
import { TASKS_EXTENSION } from '../../tasks/task-record';
import { named, type NamedStep } from './named-step';

/**
 * A member that declares `requires` runs only for clients that declared those capabilities
 * (where the connection says what the client declared), and a tool that requires a task only
 * for requests that accept one (the tasks extension); otherwise the call is refused with the
 * protocol's missing-capability error (-32021) before it takes a queue slot or runs any middleware.
 */
export function capabilityCheckStep(name: string, required: ClientCapabilities, requiresTask = false): NamedStep {
  const keys = Object.keys(required);
  return named('capability-check', (state, next) => {
    if (requiresTask && !acceptsTasks(state.request)) throw new MissingCapabilityError(name, { extensions: { [TASKS_EXTENSION]: {} } });
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
