import type { DurableObjectStateLike } from './cloudflare-types';
import { StateOperations } from './state-operations';
import { MAX_VALUE_CHARS, StateRequestError, parseStateRequest } from './state-request';

/** Largest request body the object reads (a task record and its expected copy, with room to spare). */
const MAX_BODY_CHARS = 2 * MAX_VALUE_CHARS + 4_096;

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/**
 * The Durable Object that holds an app's shared state on Cloudflare Workers: used single-use
 * states, exactly-once rounds (claims, leases, outcomes) and task records. Export it from your
 * Worker's main module and bind it (wrangler `durable_objects` and a `migrations` entry with
 * `new_sqlite_classes`); `DurableObjectContinuationStore` and `DurableObjectTaskStore` talk to it
 * through that binding, from any isolate.
 *
 * Why a Durable Object and not KV: one instance runs one request at a time over transactional
 * storage, so a claim or a compare-and-set is atomic; KV has no compare-and-set and is
 * eventually consistent. The object still runs its operations strictly one after another (a
 * queue), so atomicity does not rest on where its code awaits. Each request is a JSON POST (see
 * `state-request.ts`); a malformed one is answered 400 naming the problem, and nothing is written.
 *
 * @example
 * ```ts
 * // src/index.ts of a Worker
 * export { FusionStateObject } from '@mcpfusion/core/cloudflare';
 * ```
 */
export class FusionStateObject {
  private readonly operations: StateOperations;
  /** The operation running now: the next one starts after it, whatever it awaits. */
  private queue: Promise<unknown> = Promise.resolve();

  /** Called by the runtime with the object's state (its storage) and the Worker's env (unused). */
  constructor(state: DurableObjectStateLike, _env?: unknown) {
    this.operations = new StateOperations(state.storage);
  }

  /** One operation, from a store in the Worker (`POST`, a JSON body). */
  async fetch(request: Request): Promise<Response> {
    if (request.method !== 'POST') return answer(405, { error: 'FusionStateObject takes POST requests with a JSON body' });
    let parsed;
    try {
      const body = await request.text();
      if (body.length > MAX_BODY_CHARS) throw new StateRequestError(`the body is larger than ${MAX_BODY_CHARS} characters`);
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        throw new StateRequestError('the body is not JSON');
      }
      parsed = parseStateRequest(json);
    } catch (error) {
      return answer(400, { error: `bad state request: ${error instanceof Error ? error.message : String(error)}` });
    }
    const operation = parsed;
    const run = this.queue.then(() => this.operations.apply(operation));
    this.queue = run.catch(() => undefined);
    try {
      return answer(200, { value: await run });
    } catch (error) {
      return answer(500, { error: `the state object failed: ${error instanceof Error ? error.message : String(error)}` });
    }
  }

  /** The runtime's alarm: deletes expired entries. */
  async alarm(): Promise<void> {
    const run = this.queue.then(() => this.operations.prune());
    this.queue = run.catch(() => undefined);
    await run;
  }
}
