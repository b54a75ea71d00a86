import type { NamePrincipal } from '../auth/principal';
import type * as TelemetryModule from '../telemetry';
import { FRAMEWORK_VERSION } from '../telemetry/version';
import type { FusionAppOptions } from './app-options';

/** The app's telemetry, unless it is turned off. The principal recorded (`enduser.id`) is the one calls are bound to. */
export function telemetryOf(
  options: FusionAppOptions<object>,
  queue: { readonly waiting: number },
  namePrincipal: NamePrincipal
): TelemetryModule.Telemetry | undefined {
  if (options.telemetry === false) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- made with the first server (lazy-server-factory.ts)
  const { Telemetry } = require('../telemetry') as typeof TelemetryModule;
  return new Telemetry(options.telemetry ?? {}, FRAMEWORK_VERSION, queue, (start) =>
    namePrincipal({
      authInfo: start.auth,
      httpRequest: start.httpRequest,
      requestId: start.requestId,
      sessionId: start.sessionId,
      era: start.era,
      meta: start.meta,
      subject: start.target ?? start.uri
    })
  );
}
