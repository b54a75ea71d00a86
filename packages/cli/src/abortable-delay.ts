/**
 * Waits `ms`, or until `signal` aborts (rejecting with its reason); a signal aborted already
 * rejects at once. The timer is cleared and the listener removed either way. The polls of a task
 * (`call --task`, the inspector's task runner) wait with it.
 */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
