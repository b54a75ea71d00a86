import type { CallQueue } from './call-queue';
import type { Release } from './slot-gate';
import {
  ADMIT,
  TAKE,
  TAKE_KEYS,
  type Admission,
  type EngineAdmission,
  type EngineKeys,
  type EngineSlots,
  type Take,
  type TakeKeys
} from './engine-slots';
import type { LockRelease, MutationLock } from './fifo-mutex';

/**
 * How the queue and lock steps take their slot, chosen once per step when the chain is built: the
 * engine form of the framework's own queue and locks (`engine-slots.ts`: a free slot at once, a
 * wait on the call's own abort), else the public `acquire` with the call's signal (a queue or lock
 * of the user's own). Nothing is decided per call.
 */
export function queueTake(queue: CallQueue): Take<Release> {
  if (hasTake<Release>(queue)) return (call) => queue[TAKE](call);
  return (call) => queue.acquire(call.signal);
}

/**
 * How the engine admits a call before its chain (see `Admission`): the in-process queue's own,
 * else the queue's take, whose slot (or refusal) is handed to the call's waiter when it comes.
 */
export function queueAdmission(queue: CallQueue): Admission {
  const own = (queue as Partial<EngineAdmission>)[ADMIT];
  if (own) return own;
  const take = queueTake(queue);
  return {
    now: () => undefined,
    wait: (waiter, call) => {
      const slot = take(call);
      if (typeof slot === 'function') waiter.grant(slot);
      else
        slot.then(
          (release) => waiter.grant(release),
          (error: unknown) => waiter.refused(error)
        );
    }
  };
}

/** The app-wide take of a mutation lock (see {@link queueTake}). */
export function lockTake(lock: MutationLock): Take<LockRelease> {
  if (hasTake<LockRelease>(lock)) return (call) => lock[TAKE](call);
  return (call) => lock.acquire(call.signal);
}

/**
 * The keyed take of a mutation lock (see {@link queueTake}): its own, else its public
 * `acquireKeys`; a lock without keyed methods holds the app instead (correct, only without the
 * parallelism of disjoint keys).
 */
export function keysTake(lock: MutationLock): TakeKeys<LockRelease> {
  if (hasTakeKeys(lock)) return (keys, call) => lock[TAKE_KEYS](keys, call);
  if (typeof lock.acquireKeys === 'function') return (keys, call) => lock.acquireKeys!(keys, call.signal);
  const take = lockTake(lock);
  return (_keys, call) => take(call);
}

function hasTake<R>(value: object): value is EngineSlots<R> {
  return typeof (value as Partial<EngineSlots<R>>)[TAKE] === 'function';
}

function hasTakeKeys(value: object): value is EngineKeys<LockRelease> {
  return typeof (value as Partial<EngineKeys<LockRelease>>)[TAKE_KEYS] === 'function';
}
