/**
 * The one request shape of the engine: what a transport (or the test harness, or a task's
 * later round) hands it. Types only (a leaf of the import graph).
 */
import type { CallMode, InputChannel, RequestFacts } from './core';
import type { LogLevel } from './context';
import type { TaskHandle } from './task-handle';
import type { CallTrace } from './telemetry';

/** Sends one progress notification. */
export type ProgressSend = (progress: number, message: string | undefined) => Promise<void>;

/** Sends one `notifications/message` (the SDK applies the client's level filter). */
export type LogSend = (level: LogLevel, data: unknown, logger?: string) => Promise<void>;

/**
 * One request as it reaches the engine: what is known about it, and the untrusted material it
 * carried. Immutable: the engine builds the call's own state from it.
 */
export interface CallRequest extends RequestFacts {
  /** The request's own signal (client cancellation, disconnect). */
  readonly signal?: AbortSignal;
  /** What was asked for: the tool or prompt name, the resource URI (empty before it is known). */
  readonly subject: string;
  /** Raw, untrusted arguments (tool arguments, prompt arguments, template variables, completion context). */
  readonly arguments?: Readonly<Record<string, unknown>>;
  /** Input that needs no validation, set by the member router (a completion's value, a template's variables). */
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
  /** How the call runs from its start. Default `'request'`; a task's later rounds are `'task'`. */
  readonly mode?: CallMode;
  /** With `mode: 'task'`: the task whose round this is (its outcome settles the task). */
  readonly task?: TaskHandle;
  /** The request's telemetry, where the app has it (the transport starts it). */
  readonly trace?: CallTrace;
}
