import type { CallAbort } from '../concurrency/call-abort';
import type { ContinuationProgress } from '../interactive/continuation';
import type { InputChannel } from '../interactive/input-required';
import type { InputScope } from '../interactive/input-scope';
import type { CallContext, RequestExtra } from './call-context';
import type { CallScope } from './call-scope';
import type { CallRequest } from './call-request';
import type { LogChannel } from './call-log';
import type { CallKind, ToolInfo } from '../types/core';
import type { ProgressChannel } from './progress';

/**
 * The internal state of one call as it moves through its chain (not user-visible). The
 * engine makes it; each step reads what it needs and sets what it owns.
 */
export interface CallState {
  readonly member: CompiledMember;
  /**
   * The call's end: the request's signal, a timeout, or the app's shutdown abort it. Stages wait
   * on it (`race`); its `signal` (made on first read) is what handlers see.
   */
  readonly aborter: CallAbort;
  /** The request's own signal (client cancellation, disconnect), when it has one. */
  readonly upstream: AbortSignal | undefined;
  /** The request as the transport handed it (raw, untrusted material included). */
  readonly request: CallRequest;
  /** The raw arguments (`{}` when the request carried none). */
  readonly args: Readonly<Record<string, unknown>>;
  /** The `extra` of `contextFactory` and `principalOf`, made on first need (`requestExtraOf`). */
  extra: RequestExtra | undefined;
  /** What was asked for: the tool or prompt name, the resource URI (named in error messages). */
  readonly subject: string;
  /** The call's log writes (flushed before the response). */
  readonly log: LogChannel;
  /** Present when the call carried a progress token. */
  readonly progress: ProgressChannel | undefined;
  /** What this connection can deliver when the member asks for input; absent: nothing. */
  readonly inputChannel: InputChannel | undefined;
  /** Set by the context step. */
  ctx: CallContext | undefined;
  /** Where the call's classes are resolved (set by the context step; disposed by the engine at the end of the call). */
  scope: CallScope | undefined;
  /** The validated input, set by the validate-input step. */
  input: unknown;
  /** Interactive members: the echoed continuation and where the call stands (set by the engine). */
  interaction: Interaction | undefined;
  /** Interactive members: what `readInput` and friends read (the engine runs the chain inside it). */
  readonly inputScope: InputScope | undefined;
  /** The mutation lock's grant, when the lock gives fencing tokens (a distributed lock). */
  lock?: { readonly fencingToken: number };
}

/** The input-related part of an interactive call. */
export interface Interaction {
  readonly requestState: string | undefined;
  readonly inputResponses: Readonly<Record<string, unknown>> | undefined;
  readonly principal: string | null;
  /** Filled by the open-continuation step; read by `readInput` and friends through the input scope. */
  progress: ContinuationProgress;
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
  /** The chain as data, in order (what `describeChain` shows). */
  readonly steps: readonly { readonly name: string }[];
  /** The composed chain. */
  readonly run: (state: CallState) => Promise<unknown>;
}
