import fc from 'fast-check';

/**
 * A model-based check of a keyed mutation lock: random interleavings of acquisitions (app-wide or
 * over a few keys, from one of several instances), aborts and releases, with the invariants checked
 * at every grant and the line drained at the end. Shared by the in-process and the Redis tests.
 */
export interface LockUnderTest {
  /**
   * Starts an acquisition on `instance` (`keys` empty: app-wide; otherwise sorted). Calls `granted`
   * with its release when it holds the lock, or `failed` when it ends without it. Resolves once the
   * acquisition is placed (holds the lock or is in line), so the next one arrives after it.
   */
  acquire(
    instance: number,
    keys: readonly string[],
    signal: AbortSignal,
    granted: (release: () => void) => void,
    failed: (error: unknown) => void
  ): Promise<void>;
  /** Resolves once nothing is left of the lock's lines (throws if something stays behind). */
  idle(): Promise<void>;
}

type Command =
  | { readonly op: 'acquire'; readonly instance: number; readonly keys: readonly string[] }
  | { readonly op: 'abort'; readonly pick: number }
  | { readonly op: 'release'; readonly pick: number };

interface Request {
  readonly id: number;
  readonly keys: readonly string[];
  readonly set: string;
  readonly controller: AbortController;
  status: 'pending' | 'held' | 'aborted' | 'done';
  release?: () => void;
}

const KEYS = ['a', 'b', 'c', 'd'];

/** Random commands: acquisitions (one in five app-wide), aborts and releases. */
export function commandsArbitrary(instances: number, maxLength: number): fc.Arbitrary<Command[]> {
  const acquire = fc.record({
    op: fc.constant('acquire' as const),
    instance: fc.integer({ min: 0, max: instances - 1 }),
    keys: fc.oneof(
      { weight: 1, arbitrary: fc.constant([] as string[]) },
      { weight: 4, arbitrary: fc.subarray(KEYS, { minLength: 1, maxLength: 3 }) }
    )
  });
  const abort = fc.record({ op: fc.constant('abort' as const), pick: fc.nat() });
  const release = fc.record({ op: fc.constant('release' as const), pick: fc.nat() });
  return fc.array(fc.oneof({ weight: 3, arbitrary: acquire }, { weight: 1, arbitrary: abort }, { weight: 2, arbitrary: release }), {
    minLength: 1,
    maxLength
  });
}

/** Runs one interleaving against `lock`; throws with what went wrong (two holders, order, a stranded waiter). */
export async function runModel(
  lock: LockUnderTest,
  commands: readonly Command[],
  settle: () => Promise<void>,
  strandedMs = 5_000
): Promise<void> {
  const requests: Request[] = [];
  const violations: string[] = [];
  const holders = (): Request[] => requests.filter((r) => r.status === 'held');
  let wake = (): void => undefined;

  const onGranted = (request: Request, release: () => void): void => {
    for (const other of holders()) {
      const overlap = request.keys.length === 0 || other.keys.length === 0 || request.keys.some((k) => other.keys.includes(k));
      if (overlap) violations.push(`#${request.id} [${request.set}] granted while #${other.id} [${other.set}] holds`);
    }
    const skipped = requests.find((r) => r.id < request.id && r.status === 'pending' && r.set === request.set);
    if (skipped) violations.push(`#${request.id} [${request.set}] granted before #${skipped.id}, which arrived first`);
    if (request.status === 'aborted') {
      // A grant that raced its abort: handed straight back, as the chain's slot step does.
      release();
      return;
    }
    request.status = 'held';
    request.release = release;
    wake();
  };

  for (const command of commands) {
    if (command.op === 'acquire') {
      const request: Request = {
        id: requests.length,
        keys: command.keys,
        set: command.keys.join(',') || '*app*',
        controller: new AbortController(),
        status: 'pending'
      };
      requests.push(request);
      await lock.acquire(
        command.instance,
        command.keys,
        request.controller.signal,
        (release) => onGranted(request, release),
        (error) => {
          if (request.status !== 'aborted') violations.push(`#${request.id} failed without being aborted: ${String(error)}`);
        }
      );
    } else if (command.op === 'abort') {
      const pending = requests.filter((r) => r.status === 'pending');
      if (pending.length === 0) continue;
      const request = pending[command.pick % pending.length];
      request.status = 'aborted';
      request.controller.abort();
    } else {
      const held = holders();
      if (held.length === 0) continue;
      const request = held[command.pick % held.length];
      request.status = 'done';
      request.release!();
    }
    await settle();
    if (violations.length > 0) break;
  }

  // Drain: release whatever is held until every waiter that was not aborted has had its turn; a
  // waiter that sees no grant for `strandedMs` while nothing is held is stranded.
  while (violations.length === 0) {
    for (const request of holders()) {
      request.status = 'done';
      request.release!();
    }
    const pending = requests.filter((r) => r.status === 'pending');
    if (pending.length === 0) break;
    let timer: NodeJS.Timeout | undefined;
    const stranded = await Promise.race([
      new Promise<false>((resolve) => (wake = () => resolve(false))),
      new Promise<true>((resolve) => (timer = setTimeout(() => resolve(true), strandedMs)))
    ]);
    clearTimeout(timer);
    if (stranded && holders().length === 0)
      violations.push(`stranded: ${pending.map((r) => `#${r.id} [${r.set}]`).join(', ')} never granted`);
  }
  if (violations.length > 0) throw new Error(violations.join('\n'));
  await lock.idle();
}

/** The seed of the property runs (FUZZ_SEED reproduces a failure, as the other fuzz tests). */
export const MODEL_SEED = Number(process.env.FUZZ_SEED ?? 2026_26);
