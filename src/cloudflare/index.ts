/**
 * `@mcpfusion/core/cloudflare`: state shared by a Cloudflare Worker's isolates, in a Durable
 * Object. Export `FusionStateObject` from the Worker's main module, bind it (`durable_objects`
 * and a `migrations` entry in wrangler.jsonc), and pass the stores built on the binding to
 * `FusionApp.create`: `continuationStore` (single-use states, exactly-once rounds) and
 * `tasks.store` (task records). Nothing here runs at import; nothing needs a Node-only module.
 */
export { FusionStateObject } from './fusion-state-object';
export { StateObjectError } from './state-object-error';
export { DurableObjectContinuationStore } from './durable-object-continuation-store';
export type { DurableObjectContinuationStoreOptions } from './durable-object-continuation-store';
export { DurableObjectTaskStore } from './durable-object-task-store';
export type { DurableObjectTaskStoreOptions } from './durable-object-task-store';
export type {
  DurableObjectIdLike,
  DurableObjectNamespaceLike,
  DurableObjectStateLike,
  DurableObjectStorageLike,
  DurableObjectStubLike
} from './cloudflare-types';
