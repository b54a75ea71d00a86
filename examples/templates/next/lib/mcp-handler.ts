import type { FusionHttpHandler } from '@mcpfusion/core';
import { createApp } from './app';

/**
 * One app and one endpoint per server process, made on the first request (nothing runs at build
 * time or import). Kept on `globalThis` rather than in a module variable: `next dev` evaluates a
 * route's modules again after an edit, and each evaluation would otherwise make a new app and
 * lose the sessions and notes of the previous one.
 */
const HOLDER = Symbol.for('mcpfusion-next.endpoint');

interface Holder {
  endpoint?: FusionHttpHandler;
}

/** The Host names clients may use (DNS rebinding protection): ALLOWED_HOSTS, else the localhost names. */
function allowedHosts(): string[] | undefined {
  const hosts = process.env.ALLOWED_HOSTS?.split(',')
    .map((host) => host.trim())
    .filter((host) => host !== '');
  return hosts?.length ? hosts : undefined;
}

/**
 * The endpoint serving `request`. Its path is the one the route was reached at, as Next gives it
 * in the request's URL (a `basePath` included): the endpoint answers only its own path, and the
 * route owns the decision of where that is.
 */
export function mcpEndpoint(request: Request): FusionHttpHandler {
  const holder = ((globalThis as { [HOLDER]?: Holder })[HOLDER] ??= {});
  if (!holder.endpoint) {
    const hosts = allowedHosts();
    holder.endpoint = createApp().createHttpHandler({ path: new URL(request.url).pathname, ...(hosts ? { allowedHosts: hosts } : {}) });
  }
  return holder.endpoint;
}
