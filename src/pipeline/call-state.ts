import type { DependencyContainer } from 'tsyringe';
import type { CallAbort } from '../concurrency/call-abort';
import type { Admission } from '../concurrency/engine-slots';
import type { Release } from '../concurrency/slot-gate';
import type { ContinuationPosition } from '../interactive/continuation';
import type { RoundClaim } from '../interactive/round-claim';
import { emptyInputScope, type InputScope } from '../interactive/input-scope';
import type { CallContext, RequestExtra } from '../types/context';
import type { CallKind, CallMode, ToolInfo } from '../types/core';
import type { LockGrant } from '../types/lock';
import type { CallRequest } from '../types/request';
import type { CallTrace } from '../types/telemetry';
import type { TaskHandle } from '../types/tasks';
import { requestExtraOf } from '../auth/principal';
import { ConfigurationError } from '../errors';
import { argumentsOf, callContainer, createCallContext } from './call-context-factory';
import { LogChannel } from './call-log';
import { progressChannelOf, type ProgressChannel } from './progress';

/**
 * One call as it moves through its chain (internal, not user-visible). The engine makes it
 * before the chain runs and finishes it when the chain has answered (`CallEngine`); its context
 * and scope are made on first read (a call still waiting in the queue has none yet), so no step
 * depends on another having made them.
 *
 * Steps do not talk to each other or to the engine through its fields. What a step decides
 * about the call's life it tells the call through one method each, and only the engine reads it,
 * once, when it finishes the call: {@link answerEarly} (an extension's call-life point), {@link own}
 * (an exactly-once round's claim, the open-continuation step), and the outcome being decided
 * (`aborter.decide()`, the handler stage: from then on no abort changes it).
 */
export class CallState {
  /** Where the call's progress goes (the request's, when it carried a token; an extension's once its call-life point routes it there). */
  private progressChannel: ProgressChannel | undefined;
  /** The call's log writes, made on first read (flushed before the response; closed when the request may become a task). */
  private logChannel: LogChannel | undefined;
  /** The raw arguments (`{}` when the request carried none). */
  readonly args: Readonly<Record<string, unknown>>;
  /** What was asked for: the tool or prompt name, the resource URI (named in error messages). */
  readonly subject: string;
  /** The validated input (set by the validate-input step; given by the dispatcher where nothing validates). */
  input: unknown;
  /** The mutation lock's grant, when the lock gives fencing tokens (set by the mutation-lock step). */
  lock?: LockGrant;
  private extra: RequestExtra | undefined;
  /** Interactive members: the echoed continuation and where the call stands (made by the engine). */
  interaction: Interaction | undefined;
  /** Interactive members: what `readInput` and friends read (the engine runs the chain inside it). */
  readonly inputScope: InputScope | undefined;
  /** The request's telemetry (absent in an app without it, and for calls made through the test harness). */
  readonly trace: CallTrace | undefined;
  private callMode: CallMode;
  private taskHandle: TaskHandle | undefined;
  private roundClaim: RoundClaim | undefined;
  private over = false;
  /** How deep in its compiled chain the call went (compose's guard against a step calling `next` twice). */
  stepReached = -1;
  /** The queue slot the engine admitted the call with, until the queue step holds it (`takeAdmission`). */
  private admission: Release | undefined;
  /** The per-call context, made on first read (a handler that takes only its input never has one). */
  private context: CallContext | undefined;
  /** The call's own child container (`openScope`). */
  private child: DependencyContainer | undefined;

  constructor(
    readonly member: CompiledMember,
    /** The request as the transport handed it (raw, untrusted material included). */
    readonly request: CallRequest,
    /**
     * The call's end: the request's signal, a timeout, a task's cancel or the app's shutdown abort
     * it. Stages wait on it (`race`); its `signal` (made on first read) is what handlers see.
     */
    readonly aborter: CallAbort,
    /** Where the call's classes are resolved from (the app's container). */
    private readonly root: DependencyContainer,
    /**
     * Answers the request before the chain ends (members that may become tasks: the
     * task-escalation step answers with the `CreateTaskResult` and the chain goes on).
     */
    readonly answer: ((value: unknown) => void) | undefined
  ) {
    this.callMode = request.mode ?? 'request';
    this.taskHandle = request.task;
    this.roundClaim = undefined;
    this.trace = request.trace;
    this.progressChannel = progressChannelOf(request.sendProgress, request.trace);
    this.args = argumentsOf(request);
    this.subject = request.subject;
    this.input = request.input;
    this.extra = undefined;
    this.interaction = undefined;
    this.inputScope = member.info.interactive ? emptyInputScope() : undefined;
  }

  /** How the call runs: a request, or detached from it (`'task'`: a later round of a task, or since a call-life point answered early). */
  get mode(): CallMode {
    return this.callMode;
  }

  /** With `mode: 'task'`: the run (a task) the call's outcome settles. */
  get task(): TaskHandle | undefined {
    return this.taskHandle;
  }

  /** The request's JSON-RPC id, as the server's log names the call (a `CallIdentity`). */
  get requestId(): string | number | undefined {
    return this.request.requestId;
  }

  /** The task the call runs as, as the server's log names it (a `CallIdentity`). */
  get taskId(): string | undefined {
    return this.taskHandle?.taskId;
  }

  /** Where the call's progress goes now. */
  get progress(): ProgressChannel | undefined {
    return this.progressChannel;
  }

  /** A call-life point: the call's progress goes to `channel` from now on (an extension's report). */
  routeProgress(channel: ProgressChannel): void {
    this.progressChannel = channel;
  }

  /**
   * A call-life point answers the request now with `run.created`, and the call runs on as `run`:
   * the engine settles `run` with the call's outcome (as the boundary maps it in task mode). Once.
   */
  answerEarly(run: TaskHandle): void {
    if (this.callMode === 'task') throw new ConfigurationError(`answerNow: the call of ${this.member.info.name} has answered already`);
    this.becomeTask(run);
    this.trace?.becameTask(run.taskId, this.member.info.name);
    this.answer?.(run.created);
  }

  /** The call is now the run of `task`; the engine settles the task with its outcome. */
  private becomeTask(task: TaskHandle): void {
    // The call ended while its task was being made (an outer stage stopped waiting when the call was
    // aborted): nothing will run for it, so the task is settled cancelled at once, never left working.
    if (this.over) void task.settle({ cancelled: 'The request ended before the task started; nothing was done.' }).catch(() => undefined);
    this.taskHandle = task;
    this.callMode = 'task';
  }

  /**
   * The open-continuation step: this attempt owns an exactly-once round. Told as soon as the
   * claim is made, whatever happened to the call meanwhile, so that no claim is ever left
   * unowned (a re-issue of the round waits for its owner's end).
   */
  own(claim: RoundClaim): void {
    // The call ended before its claim arrived (an outer stage stopped waiting for the chain when
    // the call was aborted): nothing will run for it, so the round is given back at once.
    if (this.over) claim.end(undefined, false);
    else this.roundClaim = claim;
  }

  /**
   * The engine, finishing the call: from now on nothing is owned by it. Returns the exactly-once
   * round it owns, for the engine to record or give back.
   */
  finish(): RoundClaim | undefined {
    this.over = true;
    const claim = this.roundClaim;
    this.roundClaim = undefined;
    return claim;
  }

  /** The per-call context handlers and middleware see (the context step adds what `contextFactory` made). */
  get ctx(): CallContext {
    return (this.context ??= this.makeContext());
  }

  /** The call's logger (`ctx.log`), made on first read. */
  get log(): LogChannel {
    return (this.logChannel ??= new LogChannel(this.request.sendLog));
  }

  /** Whether log messages are still being written (none before the logger is made). */
  get logPending(): boolean {
    return this.logChannel?.pendingWrites === true;
  }

  /** Resolves when every message logged so far is written. */
  flushLog(): Promise<void> | undefined {
    return this.logChannel?.flush();
  }

  /** Where the call's classes are resolved: its child container once opened, else the member's (a mount's) or the app's. Makes nothing. */
  resolver(): DependencyContainer {
    return this.child ?? this.member.container ?? this.root;
  }

  /** The call's own child container, opened on first use (see `callContainer`): where the classes inject per-call tokens, or `ctx.container` is read. */
  openScope(): DependencyContainer {
    return (this.child ??= callContainer(this.member.container ?? this.root, this.ctx, this.aborter));
  }

  /**
   * The `extra` handed to `contextFactory` and `principalOf`: what the transport said about the request, its
   * `signal` (an own getter, so a spread keeps it) the call's, made on first read. Made once per call, on need.
   */
  requestExtra(): RequestExtra {
    const aborter = this.aborter;
    return (this.extra ??= requestExtraOf(this.request, () => aborter.signal, this.member.info.name));
  }

  /** The call was admitted with a queue slot before it entered its chain (`CompiledMember.admit`). */
  admitted(release: Release): void {
    this.admission = release;
  }

  /** The slot the call was admitted with, handed to the queue step once (which releases it in `finally`). */
  takeAdmission(): Release | undefined {
    const release = this.admission;
    this.admission = undefined;
    return release;
  }

  /** Gives back a slot the call was admitted with and never reached its queue step with (it was aborted on the way). */
  releaseAdmission(): void {
    this.takeAdmission()?.();
  }

  /** The end of the call: its own instances are disposed (where it made any). */
  dispose(): Promise<void> | void {
    return this.child?.dispose();
  }

  private makeContext(): CallContext {
    // A member that may answer early reads its progress channel when it reports (a call-life point may replace it).
    const channel = this.progress;
    const progress = this.member.mayBecomeTask
      ? (percent: number, message?: string) => this.progress?.report(percent, message)
      : channel
        ? (percent: number, message?: string) => channel.report(percent, message)
        : noProgress;
    return createCallContext(this, progress);
  }
}

const noProgress = (): void => undefined;

/** The input-related part of an interactive call. */
export interface Interaction {
  readonly requestState: string | undefined;
  readonly inputResponses: Readonly<Record<string, unknown>> | undefined;
  readonly principal: string | null;
  /** Which round this is and the answers so far (set by the open-continuation step; read by the ask step). */
  position: ContinuationPosition;
}

/** What a step that works only on the way out does with what the rest settled with (see `steps/named-step.ts`). */
export interface ExitHook {
  readonly value?: (state: CallState, value: unknown) => unknown;
  readonly error?: (state: CallState, error: unknown) => unknown;
}

/**
 * What a call's outcome becomes, by the one error boundary: an answer (a tool's result; in task
 * mode the task's outcome) or a failure mapped to an `isError` result, a task outcome, or a
 * thrown JSON-RPC error.
 */
export interface OutcomeMapping {
  /** The inner chain resolved with `value`. */
  answer(state: CallState, value: unknown): unknown;
  /** The inner chain failed with `error` (whatever step or handler threw it); throws the JSON-RPC error where the boundary makes one. */
  failure(state: CallState, error: unknown): unknown;
}

/** Anything a request can run (a tool, a resource, a prompt, a completer), ready to serve: its chain as data and composed,
 * built once at startup. Kinds differ only in their terminal and presentation steps and stages (`CompiledTool` adds a listing). */
export interface CompiledMember {
  readonly kind: CallKind;
  readonly info: ToolInfo;
  /** What the continuation state of an interactive member is bound to. */
  readonly bindingName: string;
  /** Interactive: each issued `requestState` is accepted once. */
  readonly singleUseState: boolean;
  /** Interactive, read-only tools: answers sent with the first call are read. */
  readonly answersUpFront: boolean;
  /** Interactive tools: a re-issued round gets the first attempt's outcome (its state is single-use too). */
  readonly exactlyOnce: boolean;
  /** Interactive members whose handler reads the ambient scope (`readInput` and friends): the engine runs the chain inside it. */
  readonly ambientInput: boolean;
  /** Whether the call may answer before its chain ends (an extension's call-life point applies to it: it may become a task). */
  readonly mayBecomeTask: boolean;
  /** The chain as data, in order (what `describeChain` shows). */
  readonly steps: readonly { readonly name: string }[];
  /** The chain inside its error boundary, composed (what the engine runs). */
  readonly run: (state: CallState) => Promise<unknown>;
  /** The error boundary's mapping of what `run` settles with (the engine applies it as the call ends). */
  readonly outcome: OutcomeMapping;
  /** Its leading exit hooks, outermost first, applied before `outcome` (`CompiledChain.exits`). */
  readonly exits: readonly ExitHook[];
  /** The queue's take, run before the chain where nothing outside the queue works before it (see `CompiledChain.admit`). */
  readonly admit: Admission | undefined;
  /** Where its classes are resolved when not from the app's container (a mounted member's mount container). */
  readonly container?: DependencyContainer;
}
