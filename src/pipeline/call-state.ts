import type { DependencyContainer } from 'tsyringe';
import type { CompiledTool } from './compiled-tool';
import type { CallContext, RequestExtra } from './call-context';
import type { ProgressChannel } from './progress';

/** The internal state of one call as it moves through the chain (not user-visible). */
export interface CallState {
  readonly tool: CompiledTool;
  readonly signal: AbortSignal;
  readonly extra: RequestExtra;
  /** Present when the call carried a progress token. */
  readonly progress: ProgressChannel | undefined;
  /** Set by the context step. */
  ctx: CallContext | undefined;
  container: DependencyContainer | undefined;
  /** The validated input, set by the input step. */
  input: unknown;
}
