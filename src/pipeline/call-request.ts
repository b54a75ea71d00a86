import type { InputChannel } from '../interactive/input-required';
import type { RequestFacts } from '../types/core';
import type { LogSend } from './call-log';
import type { ProgressSend } from './progress';

/**
 * One request as a transport (or the test harness) hands it to the engine: what is known about
 * it, and the untrusted material it carried. The one request type of the engine.
 */
export interface CallRequest extends RequestFacts {
  /** The request's own signal (client cancellation, disconnect). */
  readonly signal?: AbortSignal;
  /** What was asked for: the tool or prompt name, the resource URI. */
  readonly subject: string;
  /** Raw, untrusted arguments (tool arguments, prompt arguments, template variables, completion context). */
  readonly arguments?: Readonly<Record<string, unknown>>;
  /** Input that needs no validation, set by the transport (a completion's value). */
  readonly input?: unknown;
  /** Present only when the call carried a progress token and there is a channel for it. */
  readonly sendProgress?: ProgressSend;
  /** Present when the connection can carry log messages. */
  readonly sendLog?: LogSend;
  /** The continuation echoed by the client (MRTR `requestState`), raw and untrusted. */
  readonly requestState?: string;
  /** Answers to the previous round's requests for input, raw and untrusted. */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /** What this connection can deliver; absent: nothing. */
  readonly inputChannel?: InputChannel;
  /** Called when the handler first waits beyond the current turn (a task-capable call becomes a task then). */
  readonly onWaiting?: () => void;
  /**
   * An exception that is neither a framework error nor a tool error is thrown as a JSON-RPC error
   * (-32603, masked with `maskErrors`) instead of becoming an `isError` result: a task's round, so
   * that the task is `failed` with the error object.
   */
  readonly exceptionsFail?: boolean;
}
