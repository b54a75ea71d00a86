import type { CallAbort } from '../concurrency/call-abort';
import type { ContinuationPosition } from '../interactive/continuation';
import type { InputScope } from '../interactive/input-scope';
import type { CallContext, RequestExtra } from '../types/context';
import type { CallKind, CallMode, ToolInfo } from '../types/core';
import type { CallRequest } from '../types/request';
import type { TaskHandle } from '../types/tasks';
import type { CallScope } from './call-scope';
import type { LogChannel } from './call-log';
import type { ProgressChannel } from './progress';

/**
 * One call as it moves through its chain (internal, not user-visible). The engine makes all of
 * it before the chain runs (the context, the scope, the interaction included); steps read what
 * they need. The few fields a step changes say which step owns them.
 */
export interface CallState {
  readonly member: CompiledMember;
  /**
   * The call's end: the request's signal, a timeout, a task's cancel or the app's shutdown abort
   * it. Stages wait on it (`race`); its `signal` (made on first read) is what handlers see.
   */
  readonly aborter: CallAbort;
  /** The request as the transport handed it (raw, untrusted material included). */
  readonly request: CallRequest;
  /** The raw arguments (`{}` when the request carried none). */
  readonly args: Readonly<Record<string, unknown>>;
  /** What was asked for: the tool or prompt name, the resource URI (named in error messages). */
  readonly subject: string;
  /** The per-call context handlers and middleware see (the context step adds what `contextFactory` made). */
  readonly ctx: CallContext;
  /** Where the call's classes are resolved (a child container made on need; disposed at the call's end). */
  readonly scope: CallScope;
  /** Interactive members: the echoed continuation and where the call stands. */
  readonly interaction: Interaction | undefined;
  /** Interactive members: what `readInput` and friends read (the engine runs the chain inside it). */
  readonly inputScope: InputScope | undefined;
  /** How the call runs; the task-escalation step turns a request into a task. */
  mode: CallMode;
  /** With `mode: 'task'`: the task the call's outcome settles (set with the mode). */
  task: TaskHandle | undefined;
  /** Where the call's progress goes (the request's, when it carried a token; the task's once the task-escalation step takes the call). */
  progress: ProgressChannel | undefined;
  /** The call's log writes (flushed before the response; closed by the task-escalation step when the request accepts a task). */
  readonly log: LogChannel;
  /** The validated input (set by the validate-input step; given by the dispatcher where nothing validates). */
  input: unknown;
  /** The mutation lock's grant, when the lock gives fencing tokens (set by the mutation-lock step). */
  lock?: { readonly fencingToken: number };
  /** The `extra` of `contextFactory` and `principalOf`, made on first need (`requestExtraOf`). */
  extra: RequestExtra | undefined;
  /**
   * Answers the request before the chain ends (members that may become tasks: the
   * task-escalation step answers with the `CreateTaskResult` and the chain goes on).
   */
  readonly answer: ((value: unknown) => void) | undefined;
}

/** The input-related part of an interactive call. */
export interface Interaction {
  readonly requestState: string | undefined;
  readonly inputResponses: Readonly<Record<string, unknown>> | undefined;
  readonly principal: string | null;
  /** Which round this is and the answers so far (set by the open-continuation step; read by the ask step). */
  position: ContinuationPosition;
}

/**
 * Anything a request can run (a tool, a resource, a prompt, a completer), ready to serve: its
 * chain as data and composed, built once at startup. Kinds differ only in their terminal and
 * presentation steps, and in which stages apply. (`CompiledTool` adds a tool's listing.)
 */
export interface CompiledMember {
  readonly kind: CallKind;
  readonly info: ToolInfo;
  /** What the continuation state of an interactive member is bound to. */
  readonly bindingName: string;
  /** Interactive: each issued `requestState` is accepted once. */
  readonly singleUseState: boolean;
  /** Interactive, read-only tools: answers sent with the first call are read. */
  readonly answersUpFront: boolean;
  /** Whether its chain may answer before it ends (it has a task-escalation step). */
  readonly answersEarly: boolean;
  /** The chain as data, in order (what `describeChain` shows). */
  readonly steps: readonly { readonly name: string }[];
  /** The composed chain. */
  readonly run: (state: CallState) => Promise<unknown>;
}
