import 'reflect-metadata';
import type { FusionHttpHandler } from '@mcpfusion/core';
import { createApp } from './app';

/** The Worker's bindings (wrangler.jsonc `vars`, and the `STATE_KEY` secret). */
export interface Env {
  /** Secret (`wrangler secret put STATE_KEY`; `.dev.vars` under `wrangler dev`): signs input-round state, at least 32 bytes. */
  STATE_KEY?: string;
  /** Comma-separated Host names clients use (your workers.dev or custom domain); default: the localhost names. */
  ALLOWED_HOSTS?: string;
  /** `production` masks unexpected exceptions. */
  ENVIRONMENT?: string;
}

/**
 * Made on the first request, never at import: a Worker may not set a timer, make a random value
 * or start I/O in global scope, and its bindings (the state key) arrive with the request. An
 * isolate keeps it for the requests it serves next.
 */
let handler: FusionHttpHandler | undefined;

function handlerFor(env: Env): FusionHttpHandler | Response {
  if (handler) return handler;
  if (!env.STATE_KEY || env.STATE_KEY.length < 32) {
    return new Response('Set the STATE_KEY secret (32 characters or more): `wrangler secret put STATE_KEY`, or STATE_KEY in .dev.vars.\n', {
      status: 500
    });
  }
  const allowedHosts = env.ALLOWED_HOSTS?.split(',')
    .map((host) => host.trim())
    .filter((host) => host !== '');
  handler = createApp({ stateKey: env.STATE_KEY, maskErrors: env.ENVIRONMENT === 'production' }).createHttpHandler({
    // 2026-07-28 is stateless (each request stands alone; a question round's state travels signed
    // in the request): any isolate serves it. A 2025-era session would live in one isolate's
    // memory, which the client's next request may not reach: 2025-era clients are refused with
    // the versions served, rather than served until a request lands elsewhere.
    legacy: 'reject',
    ...(allowedHosts?.length ? { allowedHosts } : {})
  });
  return handler;
}

/** The part of the Worker's execution context used here (`@cloudflare/workers-types` names it `ExecutionContext`). */
interface Context {
  waitUntil(promise: Promise<unknown>): void;
}

export default {
  async fetch(request: Request, env: Env, ctx: Context): Promise<Response> {
    const served = handlerFor(env);
    if (served instanceof Response) return served;
    // The call's own signal: aborted when the client goes away, however workerd reports it (the
    // request's signal, or the streamed answer's pipe failing once the client stopped reading).
    const abort = new AbortController();
    const stop = (): void => abort.abort(new Error('The client went away.'));
    request.signal.addEventListener('abort', stop, { once: true });
    const response = await served.fetch(new Request(request, { signal: abort.signal }));
    if (!response.body) return response;
    // A streamed answer (progress, then the result) is piped through, and the Worker is kept
    // alive (waitUntil) until the pipe ends: when the client goes away mid-call, workerd would
    // otherwise drop this request's pending work at once (its timers never fire) and a
    // mutation's lock would never be given back. Kept alive, the call is aborted, ends, and
    // releases its lock.
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    ctx.waitUntil(response.body.pipeTo(writable).catch(stop));
    return new Response(readable, response);
  }
};
