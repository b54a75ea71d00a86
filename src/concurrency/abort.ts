import { CancelledError, FusionError } from '../errors';

/**
 * The error an aborted wait rejects with. The framework aborts a call's signal with a
 * FusionError (cancelled, timed out, app closed); any other reason is wrapped.
 */
export function abortError(signal: AbortSignal): Error {
  return abortErrorOf(signal.reason);
}

/** The error a wait ends with when a call is aborted with `reason` (framework errors pass as they are). */
export function abortErrorOf(reason: unknown): Error {
  return reason instanceof FusionError ? reason : new CancelledError(reason);
}

/**
 * Settles with `promise`, or rejects as soon as `signal` aborts, whichever is first.
 * The abort listener is removed when the race settles, so nothing is retained.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(abortError(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      promise.catch(() => undefined);
      reject(abortError(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      }
    );
  });
}
