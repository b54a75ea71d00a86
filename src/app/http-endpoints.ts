import type { McpServerFactory, ServerEventBus } from '@modelcontextprotocol/server';
import type * as FusionHttpHandlerModule from '../transports/http/fusion-http-handler';
import type { FusionHttpHandler, HttpHandlerOptions } from '../transports/http/fusion-http-handler';
import type * as SessionLaneModule from '../transports/http/front-lane/session-lane';
import type { SessionLane } from '../transports/http/front-lane/session-lane';
import type * as ModernLaneModule from '../transports/http/front-lane/modern-lane';
import type { ModernLane } from '../transports/http/front-lane/modern-lane';
import type { AppParts } from './assemble';
import type { CurrentRouter } from './current-router';

/**
 * The HTTP endpoints an app made (`createHttpHandler`, and `listen` on HTTP): each is told the
 * app's list changes while it is open, and is closed with the app.
 */
export class HttpEndpoints {
  private readonly open = new Set<FusionHttpHandler>();

  /**
   * `parts` is the definition served at the moment (`FusionApp.adopt` replaces it); `front` the
   * router of whichever definition is served when a listen arrives.
   */
  constructor(
    private readonly serverFactory: McpServerFactory,
    private readonly front: CurrentRouter,
    private readonly bus: ServerEventBus | undefined,
    private readonly parts: () => AppParts,
    private readonly log: (message: string) => void
  ) {}

  /** How many are open. */
  get size(): number {
    return this.open.size;
  }

  /** Every endpoint open now. */
  all(): readonly FusionHttpHandler[] {
    return [...this.open];
  }

  /** A web-standard HTTP endpoint for both eras, served by the app's definition of the moment. */
  create(options: HttpHandlerOptions): FusionHttpHandler {
    const { gate, namePrincipal, notifier, surfaces } = this.parts();
    let lane: SessionLane | undefined;
    let modernLane: ModernLane | undefined;
    // The lanes give the normal path's outcomes without the SDK server's per-request work: on unless turned off.
    // `true` is the gateway's form of the 2025-era lane: a quick call answered as one JSON body (see SessionLane).
    if (options.frontLane !== false) {
      const counts = { served: 0, passed: 0 };
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded with the endpoint, as the entry is
      const { SessionLane: Lane } = require('../transports/http/front-lane/session-lane') as typeof SessionLaneModule;
      lane = new Lane(surfaces, counts, options.frontLane === true ? 'json' : 'stream');
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
      const { ModernLane: Modern } = require('../transports/http/front-lane/modern-lane') as typeof ModernLaneModule;
      modernLane = new Modern(surfaces, counts);
    }
    // The HTTP entry (and with it the SDK server) loads with the first endpoint: an app is made without it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
    const { createFusionHttpHandler } = require('../transports/http/fusion-http-handler') as typeof FusionHttpHandlerModule;
    const handler = createFusionHttpHandler(
      this.serverFactory,
      {
        onerror: (e) => this.log(`http: ${e.message}`),
        ...(this.bus ? { bus: this.bus } : {}),
        ...options,
        onClose: () => {
          // What the lane took, said once (the gateway's log): whether it served a deployment's calls at all.
          if (options.frontLane === true) this.log(`front lane: ${lane!.counts.served} calls served, ${lane!.counts.passed} left to the normal path`);
          this.open.delete(handler);
          notifier.endpoints.delete(handler.notify);
          options.onClose?.();
        }
      },
      gate,
      // Through the front: the listens of whichever definition is served when one arrives.
      this.front,
      // 2025-era sessions are bound to the caller as `principalOf` names it, from what the HTTP request knows.
      // The web `Request` is built when the app's `principalOf` reads it (the default reads the token only).
      (authInfo, entry) =>
        namePrincipal({
          authInfo,
          get httpRequest() {
            return entry.web();
          },
          era: 'legacy'
        }),
      lane,
      modernLane
    );
    this.open.add(handler);
    notifier.endpoints.add(handler.notify);
    return handler;
  }
}
