export { InProcessCallQueue } from './call-queue';
export type { CallQueue, CallQueueOptions } from './call-queue';
export type { Release } from './slot-gate';
export { FifoMutex } from './fifo-mutex';
export type { LockRelease, MutationLock } from './fifo-mutex';
export { raceAbort } from './abort';
