import type { ServedRequest } from '../types/request';

/**
 * The requests as the transport served them behind the requests this app handed its extensions
 * (one per app, made by the composition root; never handed to an extension): what a task's later
 * round runs with (the channels of the `tasks/update` that resumed it: its telemetry, what its
 * connection can deliver). Held weakly: a request forgotten by its extension is forgotten here.
 */
export class ServedRequests {
  private readonly behind = new WeakMap<object, ServedRequest>();

  /** `request` (handed to an extension) was made from `served`. */
  record(request: object, served: ServedRequest): void {
    this.behind.set(request, served);
  }

  /** The request as the transport served it behind `request`, if this app handed it to an extension. */
  servedBehind(request: object): ServedRequest | undefined {
    return this.behind.get(request);
  }
}
