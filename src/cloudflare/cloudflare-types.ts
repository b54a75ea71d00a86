/**
 * The few Cloudflare Workers types the Durable Object backing uses, written out so that the
 * package needs no `@cloudflare/workers-types`: each is the subset of the runtime's own
 * interface that this folder calls, so the runtime's objects satisfy them as they are.
 */

/** `DurableObjectStorage`: the object's transactional key-value storage (both the SQLite and the KV backend have it). */
export interface DurableObjectStorageLike {
  get<T = unknown>(key: string): Promise<T | undefined>;
  get<T = unknown>(keys: string[]): Promise<Map<string, T>>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<boolean>;
  delete(keys: string[]): Promise<number>;
  list<T = unknown>(options?: { prefix?: string; limit?: number; start?: string }): Promise<Map<string, T>>;
  getAlarm(): Promise<number | null>;
  setAlarm(scheduledTime: number | Date): Promise<void>;
}

/** `DurableObjectState`: what the runtime constructs a Durable Object with. */
export interface DurableObjectStateLike {
  readonly storage: DurableObjectStorageLike;
}

/** A Durable Object's stub: requests to the one instance its id names. */
export interface DurableObjectStubLike {
  fetch(input: string, init?: { method?: string; headers?: Record<string, string>; body?: string }): Promise<Response>;
}

/** An opaque Durable Object id. */
export type DurableObjectIdLike = object;

/** `DurableObjectNamespace`: the binding a Worker reaches its Durable Objects through (`env.STATE`). */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): DurableObjectIdLike;
  get(id: DurableObjectIdLike): DurableObjectStubLike;
}
