import { CancelledError } from '../../errors';
import type { CallLifeTool, CallProgressReport, DetachedRun, ExtensionCall, ExtensionCallLife } from '../../extensions/call-life';
import { extensionRequestOf, type ExtensionRequest } from '../../extensions/extension-request';
import type { CallOutcome, TaskHandle } from '../../types/task-handle';
import type { CallState } from '../call-state';
import { ProgressChannel, shareOf } from '../progress';
import { named, namedCheck, type NamedStep } from './named-step';

/** An extension's call-life point, as the chain builder is given it: the extension's id (its opt-in is read under it) and the point. */
export interface ExtensionLife {
  readonly id: string;
  readonly life: ExtensionCallLife;
  /**
   * The extensions' start while it is under way or not begun (a call that reaches a call-life
   * point reaches its extension: it waits for the start, as an extension method does); undefined
   * once they started, so a started app's calls do not wait.
   */
  readonly starting?: () => Promise<void> | undefined;
}

/**
 * An extension's call-life point around a tool's handler (and its generator driver): placed
 * only in the chains of the tools it applies to (decided at startup), innermost, after the
 * queue slot, the locks and the question round. Each call gets an {@link ExtensionCall}
 * through which the extension asks and the call (the engine) does: see `CallState.answerEarly`.
 */
export function callLifeStep({ id, life, starting }: ExtensionLife, tool: CallLifeTool): NamedStep {
  return named('call-life', (state, next) => {
    const around = () => life.around(new LifeOfCall(id, tool, state), () => next(state));
    const start = starting?.();
    return start ? state.aborter.race(start).then(around) : around();
  });
}

/**
 * An extension's check of a tool's calls (`ExtensionCallLife.checkFor`, decided at startup),
 * before the call takes anything: a call it refuses ends here, thrown to the boundary.
 */
export function callLifeCheckStep(id: string, check: (request: ExtensionRequest) => void, tool: CallLifeTool): NamedStep {
  return namedCheck('call-life-check', (state, next) => {
    check(extensionRequestOf(id, 'tools/call', { name: tool.name, arguments: state.args }, state.request, state.aborter.signal));
    return next(state);
  });
}

/** One call as an extension's call-life point sees it: each method asks the call's state. */
class LifeOfCall implements ExtensionCall {
  private made: ExtensionRequest | undefined;

  constructor(
    private readonly id: string,
    readonly tool: CallLifeTool,
    private readonly state: CallState
  ) {}

  get request(): ExtensionRequest {
    const { state } = this;
    return (this.made ??= extensionRequestOf(
      this.id,
      'tools/call',
      { name: this.tool.name, arguments: state.args },
      state.request,
      state.aborter.signal
    ));
  }

  get arguments(): Readonly<Record<string, unknown>> {
    return this.state.args;
  }

  get answered(): boolean {
    return this.state.mode === 'task';
  }

  closeLog(): void {
    this.state.log.close();
  }

  reportProgressTo(report: CallProgressReport): void {
    const { state } = this;
    state.routeProgress(
      new ProgressChannel(async (progress, message, total) => {
        // A count (`progress({ progress, total })`) reaches the point as its share, and as given.
        const percent = total === 100 ? progress : shareOf(progress, total);
        state.trace?.progress(percent, message);
        await report(percent, message, total === 100 ? undefined : { progress, ...(total !== undefined ? { total } : {}) });
      })
    );
  }

  detach(): void {
    this.state.aborter.detach();
  }

  abort(reason: unknown): void {
    this.state.aborter.abort(CancelledError.of(reason));
  }

  answerNow(result: Record<string, unknown>, run: DetachedRun): void {
    this.state.answerEarly(runHandleOf(run, result));
  }
}

/**
 * A detached run as the engine settles it (internal: the call's task handle): `created` what
 * the request was answered with (`{}` for a later round, which answers none).
 */
export function runHandleOf(run: DetachedRun, created: Record<string, unknown> = {}): TaskHandle {
  return { taskId: run.id, created, report: nothing, settle: (outcome) => settleQuietly(run, outcome) };
}

const nothing = (): void => undefined;

/** Tells a detached run its outcome; what it throws or rejects with is the extension's, dropped here. */
function settleQuietly(run: DetachedRun, outcome: CallOutcome): Promise<void> {
  try {
    return Promise.resolve(run.settled(outcome)).then(nothing, nothing);
  } catch {
    return Promise.resolve();
  }
}
