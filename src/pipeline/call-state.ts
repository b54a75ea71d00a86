import type { DependencyContainer } from 'tsyringe';
import type { CompiledTool } from './compiled-tool';
import type { CallContext, RequestExtra } from './call-context';
import type { ContinuationProgress } from '../interactive/continuation';
import type { InputScope } from '../interactive/input-scope';
import type { LogChannel } from './call-log';
import type { ProgressChannel } from './progress';

/** The internal state of one call as it moves through the chain (not user-visible). */
export interface CallState {
  readonly tool: CompiledTool;
  readonly signal: AbortSignal;
  readonly extra: RequestExtra;
  /** The call's log writes (awaited before the response). */
  readonly log: LogChannel;
  /** Present when the call carried a progress token. */
  readonly progress: ProgressChannel | undefined;
  /** Set by the context step. */
  ctx: CallContext | undefined;
  container: DependencyContainer | undefined;
  /** The validated input, set by the input step. */
  input: unknown;
  /** Interactive tools: the echoed continuation and where the call stands (set by the input step). */
  readonly interaction: Interaction | undefined;
  /** Interactive tools: what `readInput` and friends read (the engine runs the chain inside it). */
  readonly inputScope: InputScope | undefined;
}

/** The input-related part of an interactive call. */
export interface Interaction {
  readonly requestState: string | undefined;
  readonly inputResponses: Readonly<Record<string, unknown>> | undefined;
  readonly principal: string | null;
  /** Filled by the input step; read by `readInput` and friends through the input scope. */
  progress: ContinuationProgress;
}
