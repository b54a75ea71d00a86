import 'reflect-metadata';
import type { FusionHttpHandler } from '@mcpfusion/core';
import { DurableObjectContinuationStore, DurableObjectTaskStore, type DurableObjectNamespaceLike } from '@mcpfusion/core/cloudflare';
import { createApp } from './app';

// The Durable Object class the STATE binding names (wrangler.jsonc): the runtime finds it among
// the main module's exports.
export { FusionStateObject } from '@mcpfusion/core/cloudflare';

/** The Worker's bindings (wrangler.jsonc `vars` and `durable_objects`, and the `STATE_KEY` secret). */
export interface Env {
  /** Secret (`wrangler secret put STATE_KEY`; `.dev.vars` under `wrangler dev`): signs input-round state, at least 32 bytes. */
  STATE_KEY?: string;
  /** Comma-separated Host names clients use (your workers.dev or custom domain); default: the localhost names. */
  ALLOWED_HOSTS?: string;
  /** `production` masks unexpected exceptions. */
  ENVIRONMENT?: string;
  /**
   * The FusionStateObject binding: single-use states, exactly-once rounds and task records,
   * shared by every isolate. Without it they are kept per isolate (they do not hold across isolates).
   */
  STATE?: DurableObjectNamespaceLike;
}

/** What the runtime passes beside the request: `waitUntil` keeps work going after the response. */
interface WorkerContext {
  waitUntil(work: Promise<unknown>): void;
}

/**
 * Made on the first request, never at import: a Worker may not set a timer, make a random value
 * or start I/O in global scope, and its bindings (the state key) arrive with the request. An
 * isolate keeps it for the requests it serves next.
 */
let served: Served | undefined;

/** The isolate's endpoint, and the task store whose runs it keeps going after a response. */
interface Served {
  handler: FusionHttpHandler;
  tasks?: DurableObjectTaskStore;
}

function serverFor(env: Env): Served | Response {
  if (served) return served;
  if (!env.STATE_KEY || env.STATE_KEY.length < 32) {
    return new Response('Set the STATE_KEY secret (32 characters or more): `wrangler secret put STATE_KEY`, or STATE_KEY in .dev.vars.\n', {
      status: 500
    });
  }
  const allowedHosts = env.ALLOWED_HOSTS?.split(',')
    .map((host) => host.trim())
    .filter((host) => host !== '');
  const tasks = env.STATE ? new DurableObjectTaskStore(env.STATE) : undefined;
  const app = createApp({
    stateKey: env.STATE_KEY,
    maskErrors: env.ENVIRONMENT === 'production',
    ...(env.STATE ? { continuationStore: new DurableObjectContinuationStore(env.STATE, { key: env.STATE_KEY }), taskStore: tasks } : {})
  });
  const handler = app.createHttpHandler({
    // 2026-07-28 is stateless (each request stands alone; a question round's state travels signed
    // in the request): any isolate serves it. A 2025-era session would live in one isolate's
    // memory, which the client's next request may not reach: 2025-era clients are refused with
    // the versions served, rather than served until a request lands elsewhere.
    legacy: 'reject',
    ...(allowedHosts?.length ? { allowedHosts } : {})
  });
  served = { handler, ...(tasks ? { tasks } : {}) };
  return served;
}

export default {
  async fetch(request: Request, env: Env, ctx: WorkerContext): Promise<Response> {
    const server = serverFor(env);
    if (server instanceof Response) return server;
    // A client that goes away mid-call aborts request.signal (the enable_request_signal flag in
    // wrangler.jsonc): the call is cancelled, and a mutation gives its lock back at once.
    const response = await server.handler.fetch(request);
    // A call that became a task is answered at once and runs on: the runtime keeps this isolate's
    // work going until its outcome is in the Durable Object (at most 30 s after the response).
    if (server.tasks) ctx.waitUntil(server.tasks.settled());
    return response;
  }
};
