import type { DurableObjectNamespaceLike } from './cloudflare-types';
import type { StateRequest } from './state-request';
import { ConfigurationError } from '../errors';
import { StateObjectError } from './state-object-error';

/** The URL the requests to the object carry: a stub's `fetch` needs an absolute one, and nothing reads it. */
const OBJECT_URL = 'https://fusion-state.internal/';

/**
 * The Worker's side of the state object: sends one operation to the instance named `name` and
 * returns its answer. A stub is made for each request (cheap: it is a handle), since a Worker may
 * not use an I/O object made for one request in another, and the stores live across requests.
 */
export class StateObjectClient {
  constructor(
    private readonly namespace: DurableObjectNamespaceLike,
    private readonly name: string
  ) {
    if (!namespace || typeof namespace.idFromName !== 'function' || typeof namespace.get !== 'function')
      throw new ConfigurationError(
        'A Durable Object namespace binding is needed (env.STATE: a `durable_objects` binding to FusionStateObject in wrangler.jsonc)'
      );
  }

  /** Sends `request`; its answer, or an error saying what the object refused or why it failed. */
  async send<T>(request: StateRequest): Promise<T> {
    const stub = this.namespace.get(this.namespace.idFromName(this.name));
    const response = await stub.fetch(OBJECT_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request)
    });
    const text = await response.text();
    let body: { value?: unknown; error?: unknown };
    try {
      body = JSON.parse(text) as { value?: unknown; error?: unknown };
    } catch (error) {
      throw new StateObjectError(
        `FusionStateObject answered ${response.status} without JSON (is the binding's class FusionStateObject?): ${text.slice(0, 200)}`,
        { cause: error }
      );
    }
    if (!response.ok) throw new StateObjectError(`FusionStateObject refused "${request.op}" (${response.status}): ${String(body.error)}`);
    return body.value as T;
  }
}
