import type * as ServerSdk from '@modelcontextprotocol/server';

let loaded: typeof ServerSdk | undefined;

/**
 * The MCP SDK's server package, loaded on first use rather than at import. It is most of what a
 * start loads (the SDK server with its schemas and zod): importing the package and `FusionApp.create`
 * do without it, so that `listen` can take its port before it loads (cold start, docs/deploy.md),
 * and the first request, a listing or a call load it. Modules on that path call this where they use
 * one of its values; the ones only a served request reaches import the SDK as usual.
 */
export function serverSdk(): typeof ServerSdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (above)
  return (loaded ??= require('@modelcontextprotocol/server') as typeof ServerSdk);
}
