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

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const served = handlerFor(env);
    // A client that goes away mid-call aborts request.signal (the enable_request_signal flag in
    // wrangler.jsonc): the call is cancelled, and a mutation gives its lock back at once.
    return served instanceof Response ? served : served.fetch(request);
  }
};
