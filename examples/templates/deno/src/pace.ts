/** The pause `notes.import` makes between two notes, in ms; provided by the app (see app.ts). */
export const IMPORT_PACE = Symbol('IMPORT_PACE');

/**
 * Waits `ms`, or rejects with the signal's reason as soon as it aborts: a cancelled call stops
 * at once, not at the end of the pause. Nothing is left behind either way (the timer is cleared
 * on abort, the listener removed when the timer fires). Web-standard only: it runs on every runtime.
 */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
