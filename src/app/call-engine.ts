import type { InputRequiredResult } from '@modelcontextprotocol/server';
import { serverSdk } from '../wire/server-sdk';
import { CallAbort } from '../concurrency/call-abort';
import type { Admission } from '../concurrency/engine-slots';
import type { Release } from '../concurrency/slot-gate';
import { WaiterList } from '../concurrency/waiter-list';
import { AppClosedError } from '../errors';
import { firstEntry } from '../interactive/continuation';
import { withInputScope } from '../interactive/input-scope';
import { CallState, type CompiledMember } from '../pipeline/call-state';
import { applyExits, type CallEnd } from '../pipeline/exits';
import type { CallIdentity, ErrorBoundary } from '../pipeline/error-boundary';
import type { NamePrincipal } from '../auth/principal';
import type { CallRequest } from '../types/request';
import type { TaskOutcome } from '../types/tasks';
import { ownValue } from '../wire/own-properties';
import type { DependencyContainer } from 'tsyringe';
import { QueuedCall, type QueueSide, type Then } from './queued-call';

/**
 * The one owner of a call's life, for every kind alike: {@link run} starts the call (its state:
 * the abort, the interaction), runs the member's compiled chain, has the chain's outermost step,
 * the error boundary, map what it settled with (`member.outcome`: the answer, a result or a
 * thrown JSON-RPC error), and finishes it ({@link finish}): it stops following its request, leaves the in-flight
 * set, disposes its own instances, records or gives back an exactly-once round it owns, and
 * settles the task it became. Steps tell the call what they decide (`CallState.becomeTask`,
 * `own`, `aborter.decide`); only this class reads it, once, here.
 */
export class CallEngine implements QueueSide, CallEnd<Then> {
  /** The calls in flight, each its own node in the list (the app's shutdown aborts them). */
  private readonly inFlight = new WaiterList<CallAbort>();
  private closed = false;
  /** Who waits for the last call in flight to end (see {@link whenIdle}). */
  private idleWaiters: (() => void)[] = [];

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

  /**
   * Resolves once no call is in flight (at once if none is). How a definition replaced by a
   * reload knows its calls are over, so its resources can be released under nothing.
   */
  whenIdle(): Promise<void> {
    if (this.inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** A call left the in-flight set: the idle waiters hear of it when it was the last. */
  private left(aborter: CallAbort): void {
    this.inFlight.remove(aborter);
    if (this.inFlight.size > 0 || this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /**
   * Runs a request through its member's chain; resolves with the answer, or rejects with the
   * JSON-RPC error the boundary made. `then` (a caller that reads the answer, like `app.callTool`
   * following its input rounds) is applied to the answer in the reaction that finishes the call.
   */
  run(member: CompiledMember, request: CallRequest, then: Then = same): Promise<unknown> {
    // No closure here (a closure's variables would be allocated on every call, made or not): what needs one has its own method.
    if (member.mayBecomeTask || member.answersUpFront) return this.runAnsweringLate(member, request, then);
    if (this.closed) return this.refusedToStart(member, request, new AppClosedError(), then);
    // A request whose stage waits are timed waits in its queue step, which measures it.
    const admit = request.trace?.timing ? undefined : member.admit;
    const release = admit?.now();
    if (admit && !release) return this.queued(member, request, admit, then);
    let state: CallState;
    try {
      state = this.start(member, request, this.aborterOf(member, request), undefined);
    } catch (error) {
      release?.();
      return this.refusedToStart(member, request, error, then);
    }
    if (release) state.admitted(release);
    return this.mapped(state, this.chain(state), then);
  }

  /**
   * A member whose answer may come before its chain ends (it may become a task) or be followed by
   * a second run (answers sent up front): the answer is read last.
   */
  private runAnsweringLate(member: CompiledMember, request: CallRequest, then: Then): Promise<unknown> {
    let state: CallState;
    let early: Promise<unknown> | undefined;
    try {
      if (this.closed) throw new AppClosedError();
      let answer: ((value: unknown) => void) | undefined;
      if (member.mayBecomeTask) early = new Promise((resolve) => (answer = resolve));
      state = this.start(member, request, this.aborterOf(member, request), answer);
    } catch (error) {
      return this.refusedToStart(member, request, error, then);
    }
    const done = this.admittedIfFree(state);
    const answered = member.answersUpFront ? done.then((value) => this.answersUpFront(member, request, value)) : done;
    return (early ? Promise.race([answered, early]) : answered).then(then);
  }

  /** A call refused before its chain could run (the app is closing), answered on a later microtask. */
  private refusedToStart(member: CompiledMember, request: CallRequest, error: unknown, then: Then): Promise<unknown> {
    return Promise.resolve().then(() => then(this.failedToStart(member, request, error)));
  }

  /**
   * A call that may answer before its chain ends: admitted with a free queue slot when there is
   * one (`member.admit`), its chain run and its outcome mapped; otherwise its queue step waits.
   */
  private admittedIfFree(state: CallState): Promise<unknown> {
    const admit = state.trace?.timing ? undefined : state.member.admit;
    const release = admit?.now();
    if (release) state.admitted(release);
    return this.mapped(state, this.chain(state), same);
  }

  /**
   * A call that waits in line for its slot (`member.admit`: its steps outside the queue do
   * nothing on the way in). In line it is only its abort and its waiter: its state and chain are
   * made when it is granted the slot, and a cancelled one ends in the abort's own dispatch (no
   * promise of the slot, no reaction between), answered as the error boundary says.
   */
  private queued(member: CompiledMember, request: CallRequest, admit: Admission, then: Then): Promise<unknown> {
    const waiter = new QueuedCall(this, member, request, this.aborterOf(member, request), then);
    try {
      admit.wait(waiter, waiter.aborter);
    } catch (error) {
      waiter.refused(error);
    }
    return waiter.answer;
  }

  /** A queued call granted its slot: its state is made and its chain runs (on the next microtask, not inside the release that granted it). */
  enterAdmitted(call: QueuedCall, release: Release): void {
    let state: CallState;
    try {
      state = this.start(call.member, call.request, call.aborter, undefined);
    } catch (error) {
      release();
      return call.refused(error);
    }
    state.admitted(release);
    this.mapped(state, this.chain(state), call.then).then(call.resolve, call.reject);
  }

  /**
   * A queued call refused its slot (aborted in line, or the queue was full): it ends here,
   * answered as the error boundary says; nothing of its chain was made.
   */
  refusedInLine(call: QueuedCall, error: unknown): unknown {
    call.aborter.detach();
    this.left(call.aborter);
    // The call names itself in the log (its `requestId` and `taskId`), read only if a line is logged.
    return this.failedToStart(call.member, call.request, error, call);
  }

  /** What the chain settles with, through its exits (`member.exits`), mapped by the error boundary (`member.outcome`), and the call finished. */
  private mapped(state: CallState, chain: Promise<unknown>, then: Then): Promise<unknown> {
    return chain.then(
      (value) => applyExits(state, false, value, then, this),
      (error: unknown) => applyExits(state, true, error, then, this)
    );
  }

  /** The call's exits are applied (`applyExits`): the boundary maps the outcome, the call is finished, `then` applied. */
  end(state: CallState, failed: boolean, outcome: unknown, then: Then): unknown {
    return failed ? then(this.failed(state, outcome)) : then(this.finish(state, state.member.outcome.answer(state, outcome)));
  }

  /** A failure, mapped by the error boundary; a JSON-RPC error ends the call without an answer and is what the request gets. */
  failed(state: CallState, error: unknown): unknown {
    let answer: unknown;
    try {
      answer = state.member.outcome.failure(state, error);
    } catch (protocolError) {
      this.finish(state, undefined);
      throw protocolError;
    }
    return this.finish(state, answer);
  }

  /** A call's abort, following its request's signal; it joins the in-flight set (which the app's shutdown aborts). */
  private aborterOf(member: CompiledMember, request: CallRequest): CallAbort {
    const aborter = new CallAbort(request.signal);
    this.inFlight.push(aborter);
    // A later round of a task (after `tasks/update`): its work is the task's, told apart from the request that resumed it.
    if (request.mode === 'task' && request.task) request.trace?.becameTask(request.task.taskId, member.info.name);
    return aborter;
  }

  /** A call's state, made before its chain runs (a failure here ends the call: its abort leaves the in-flight set). */
  private start(
    member: CompiledMember,
    request: CallRequest,
    aborter: CallAbort,
    answer: ((value: unknown) => void) | undefined
  ): CallState {
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
        this.left(aborter);
        throw error;
      }
    }
    return state;
  }

  /** The member's chain, inside the call's input scope where its handler reads the ambient one; a synchronous throw is a rejection. */
  private chain(state: CallState): Promise<unknown> {
    try {
      return state.inputScope && state.member.ambientInput
        ? withInputScope(state.inputScope, () => state.member.run(state))
        : state.member.run(state);
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
    this.left(state.aborter);
    // Admitted with a queue slot and aborted before its queue step held it: the slot goes back here.
    state.releaseAdmission();
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

  /**
   * A call that ended before its chain ran (the app is closing, its state could not be made, or
   * it was refused in line): answered as the boundary says, and a task round's task settled.
   */
  private failedToStart(member: CompiledMember, request: CallRequest, error: unknown, call?: CallIdentity): unknown {
    const mode = request.mode ?? 'request';
    request.trace?.failed(error, mode);
    const outcome = this.boundary.fail(member.kind, request.subject, mode, error, call);
    if (mode === 'task') {
      if (request.task) void request.task.settle(outcome as TaskOutcome);
      request.trace?.taskEnded(outcome);
    }
    return outcome;
  }

  /**
   * A read-only tool that opted in (`answersUpFront`): answers came with the first call (no
   * state yet); they are read against the requests just made, as on a retry. Once only.
   */
  private answersUpFront(member: CompiledMember, request: CallRequest, value: unknown): unknown {
    if (!serverSdk().isInputRequiredResult(value) || !answersSentUpFront(request, value)) return value;
    return this.run(member, { ...request, requestState: value.requestState });
  }

  /** Refuses new calls and aborts those in flight (graceful shutdown). */
  close(): void {
    this.closed = true;
    // A snapshot: an abort may end its call (which leaves the list) at once.
    for (const aborter of this.inFlight.snapshot()) aborter.abort(new AppClosedError());
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

const same: Then = (answer) => answer;
