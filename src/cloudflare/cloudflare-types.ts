/**
 * The few Cloudflare Workers types the Durable Object backing uses, written out so that the
 * package needs no `@cloudflare/workers-types`: each is the subset of the runtime's own
 * interface that this folder calls, so the runtime's objects satisfy them as they are.
 */

/** `DurableObjectStorage`: the object's transactional key-value storage (both the SQLite and the KV backend have it). */
export interface DurableObjectStorageLike {
  /** The value under `key`, or undefined. */
  get<T = unknown>(key: string): Promise<T | undefined>;
  /** The values under `keys` (at most 128), the missing ones left out. */
  get<T = unknown>(keys: string[]): Promise<Map<string, T>>;
  /** Stores `value` (structured-clonable) under `key`. */
  put(key: string, value: unknown): Promise<void>;
  /** Deletes `key`; whether it existed. */
  delete(key: string): Promise<boolean>;
  /** Deletes `keys` (at most 128); how many existed. */
  delete(keys: string[]): Promise<number>;
  /** The entries in key order, from `start` (inclusive), under `prefix`, at most `limit`. */
  list<T = unknown>(options?: { prefix?: string; limit?: number; start?: string }): Promise<Map<string, T>>;
  /** When the object's alarm is set for (epoch ms), or null. */
  getAlarm(): Promise<number | null>;
  /** Sets the object's alarm (its `alarm()` runs then). */
  setAlarm(scheduledTime: number | Date): Promise<void>;
}

/** `DurableObjectState`: what the runtime constructs a Durable Object with. */
export interface DurableObjectStateLike {
  /** The object's own storage. */
  readonly storage: DurableObjectStorageLike;
}

/** A Durable Object's stub: requests to the one instance its id names. */
export interface DurableObjectStubLike {
  /** Sends a request to the object's `fetch`. */
  fetch(input: string, init?: { method?: string; headers?: Record<string, string>; body?: string }): Promise<Response>;
}

/** An opaque Durable Object id. */
export type DurableObjectIdLike = object;

/** `DurableObjectNamespace`: the binding a Worker reaches its Durable Objects through (`env.STATE`). */
export interface DurableObjectNamespaceLike {
  /** The id of the one object named `name` (the same on every isolate and location). */
  idFromName(name: string): DurableObjectIdLike;
  /** A stub for the object of `id`. */
  get(id: DurableObjectIdLike): DurableObjectStubLike;
}
