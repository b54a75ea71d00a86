/**
 * A relisting that a flood of `list_changed` notifications cannot multiply: at most one runs, and
 * at most one more is queued behind it (every notice that arrives meanwhile is that one), so ten
 * thousand notices cost at most a few listings, and the last listing follows the last notice.
 */
export function coalesced(run: () => Promise<void>, failed: (error: unknown) => void): () => void {
  let running = false;
  let again = false;
  const start = (): void => {
    running = true;
    again = false;
    void run()
      .catch(failed)
      .finally(() => {
        running = false;
        if (again) start();
      });
  };
  return () => {
    if (running) again = true;
    else start();
  };
}
