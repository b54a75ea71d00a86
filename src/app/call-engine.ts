import { isInputRequiredResult, type InputRequiredResult } from '@modelcontextprotocol/server';
import { CallAbort } from '../concurrency/call-abort';
import { AppClosedError } from '../errors';
import { firstEntry } from '../interactive/continuation';
import { withInputScope } from '../interactive/input-scope';
import { CallState, type CompiledMember } from '../pipeline/call-state';
import type { ErrorBoundary } from '../pipeline/error-boundary';
import type { NamePrincipal } from '../auth/principal';
import type { CallRequest } from '../types/request';
import type { TaskOutcome } from '../types/tasks';
import { ownValue } from '../wire/own-properties';
import type { DependencyContainer } from 'tsyringe';

/**
 * The one owner of a call's life, for every kind alike: {@link run} starts the call (its state:
 * the abort, the interaction), runs the member's compiled chain, has the chain's outermost step,
 * the error boundary, map what it settled with (`member.outcome`: the answer, a result or a
 * thrown JSON-RPC error), and finishes it ({@link finish}): it stops following its request, leaves the in-flight
 * set, disposes its own instances, records or gives back an exactly-once round it owns, and
 * settles the task it became. Steps tell the call what they decide (`CallState.becomeTask`,
 * `own`, `aborter.decide`); only this class reads it, once, here.
 */
export class CallEngine {
  private readonly inFlight = new Set<CallAbort>();
  private closed = false;

  constructor(
    private readonly container: DependencyContainer,
    /** Names the caller an interactive call's continuation is bound to: the app's one function for it. */
    private readonly namePrincipal: NamePrincipal,
    private readonly boundary: ErrorBoundary
  ) {}

  /** Calls in flight now. */
  get activeCalls(): number {
    return this.inFlight.size;
  }

  /** Runs a request through its member's chain; resolves with the answer, or rejects with the JSON-RPC error the boundary made. */
  run(member: CompiledMember, request: CallRequest): Promise<unknown> {
    let state: CallState;
    let early: Promise<unknown> | undefined;
    try {
      if (this.closed) throw new AppClosedError();
      let answer: ((value: unknown) => void) | undefined;
      if (member.mayBecomeTask) early = new Promise((resolve) => (answer = resolve));
      state = this.start(member, request, answer);
    } catch (error) {
      return Promise.resolve().then(() => this.failedToStart(member, request, error));
    }
    // The error boundary's mapping and the call's end in one reaction (a queued call keeps one `then`).
    const { outcome } = member;
    const done = this.chain(state).then(
      (value) => this.finish(state, outcome.answer(state, value)),
      (error: unknown) => {
        let answer: unknown;
        try {
          answer = outcome.failure(state, error);
        } catch (protocolError) {
          // A JSON-RPC error: the call ends without an answer, and the error is what the request gets.
          this.finish(state, undefined);
          throw protocolError;
        }
        return this.finish(state, answer);
      }
    );
    const answered = member.answersUpFront ? done.then((value) => this.answersUpFront(member, request, value)) : done;
    return early ? Promise.race([answered, early]) : answered;
  }

  /** A call's state, made before the chain runs; its abort joins the in-flight set. */
  private start(member: CompiledMember, request: CallRequest, answer: ((value: unknown) => void) | undefined): CallState {
    const aborter = new CallAbort(request.signal);
    const state = new CallState(member, request, aborter, this.container, answer);
    if (member.info.interactive) {
      try {
        state.interaction = {
          requestState: request.requestState,
          inputResponses: request.inputResponses,
          principal: this.namePrincipal(request) ?? null,
          position: firstEntry()
        };
      } catch (error) {
        aborter.detach();
        throw error;
      }
    }
    this.inFlight.add(aborter);
    // A later round of a task (after `tasks/update`): its work is the task's, told apart from the request that resumed it.
    if (state.mode === 'task' && request.task) request.trace?.becameTask(request.task.taskId, member.info.name);
    return state;
  }

  /** The member's chain, inside the call's input scope where it has one; a synchronous throw is a rejection. */
  private chain(state: CallState): Promise<unknown> {
    try {
      return state.inputScope ? withInputScope(state.inputScope, () => state.member.run(state)) : state.member.run(state);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * The end of a call, told its answer (undefined: the chain threw a JSON-RPC error). The
   * outcome is the handler's when it was decided (`aborter.decided`: the handler returned or
   * threw a ToolError), whatever aborted the call afterwards: an exactly-once round records it;
   * otherwise (aborted or failed before the handler decided, or a protocol error) the round is
   * given back, so a re-issue runs it. A task is settled with the answer the boundary made.
   */
  private finish(state: CallState, answer: unknown): unknown {
    state.aborter.detach();
    this.inFlight.delete(state.aborter);
    // Not awaited by the response: disposing a call's own instances is the call's end, not its answer.
    const disposing = state.dispose();
    if (disposing) disposing.catch(() => undefined);
    state.finish()?.end(answer, answer !== undefined && state.aborter.decided);
    if (state.mode === 'task') {
      if (state.task && answer !== undefined) void state.task.settle(answer as TaskOutcome);
      state.trace?.taskEnded(answer);
    }
    return answer;
  }

  /** A call refused before its chain could run (the app is closing): answered as the boundary says. */
  private failedToStart(member: CompiledMember, request: CallRequest, error: unknown): unknown {
    const mode = request.mode ?? 'request';
    request.trace?.failed(error, mode);
    const outcome = this.boundary.fail(member.kind, request.subject, mode, error);
    if (mode === 'task' && request.task) void request.task.settle(outcome as TaskOutcome);
    return outcome;
  }

  /**
   * A read-only tool that opted in (`answersUpFront`): answers came with the first call (no
   * state yet); they are read against the requests just made, as on a retry. Once only.
   */
  private answersUpFront(member: CompiledMember, request: CallRequest, value: unknown): unknown {
    if (!isInputRequiredResult(value) || !answersSentUpFront(request, value)) return value;
    return this.run(member, { ...request, requestState: value.requestState });
  }

  /** Refuses new calls and aborts those in flight (graceful shutdown). */
  close(): void {
    this.closed = true;
    for (const aborter of this.inFlight) aborter.abort(new AppClosedError());
  }
}

/** Whether a first call (no continuation yet) carries answers to requests the tool just made. */
function answersSentUpFront(request: CallRequest, result: InputRequiredResult): boolean {
  if (request.requestState !== undefined || !request.inputResponses) return false;
  return Object.keys(result.inputRequests ?? {}).some((key) => {
    const answer = ownValue(request.inputResponses, key);
    return answer !== undefined && answer !== null;
  });
}
