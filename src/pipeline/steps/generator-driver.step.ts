import type { CallState } from '../call-state';
import { isProgressUpdate, type ProgressChannel, type ProgressUpdate } from '../progress';
import { named, type NamedStep } from './named-step';

type AnyIterator = AsyncIterator<unknown, unknown> | Iterator<unknown, unknown>;

/**
 * Drives a generator handler: progress events go to the call's progress channel,
 * anything else yielded is ignored, the returned value is the result. Every `next(state)`
 * races the abort, so a generator stuck on slow I/O cannot hold the call: on abort the
 * driver stops waiting at once and calls `return()` without awaiting it, so the
 * generator's `finally` runs without blocking the response.
 */
export function generatorDriverStep(): NamedStep {
  return named('generator-driver', async (state, next) => {
    const out = await next(state);
    return isIterator(out) ? drive(out, state) : out;
  });
}

async function drive(gen: AnyIterator, state: CallState): Promise<unknown> {
  const { aborter } = state;
  try {
    for (;;) {
      if (aborter.aborted) throw aborter.error();
      const step = await aborter.race(Promise.resolve(gen.next(state)));
      if (step.done) return step.value;
      // Without a progress token there is nowhere to send it: the event is dropped unread.
      if (state.progress && isProgressUpdate(step.value)) report(state.progress, step.value);
    }
  } catch (error) {
    // Not awaited: a generator stuck in an await must not hold the response.
    void Promise.resolve()
      .then(() => gen.return?.(undefined))
      .catch(() => undefined);
    throw error;
  }
}

/** A yielded update to the channel: a count as given, a percentage as such. */
function report(channel: ProgressChannel, update: ProgressUpdate): void {
  if (update.progress === undefined) channel.report(update.percent, update.message);
  else channel.reportCount(update.progress, update.total, update.message);
}

function isIterator(value: unknown): value is AnyIterator {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { next?: unknown }).next === 'function' &&
    (Symbol.asyncIterator in value || Symbol.iterator in value)
  );
}
