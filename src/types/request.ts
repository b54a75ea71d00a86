/**
 * The request shapes: what a transport serves (`ServedRequest`) and what the engine runs
 * (`CallRequest`, the same and what it calls). Types only (a leaf of the import graph).
 */
import type { CallMode, InputChannel, RequestFacts } from './core';
import type { LogLevel } from './context';
import type { TaskHandle } from './task-handle';
import type { CallTrace } from './telemetry';

/** Sends one progress notification: `progress` of `total` (none when undefined), as the call reported it. */
export type ProgressSend = (progress: number, message: string | undefined, total?: number) => Promise<void>;

/** Sends one `notifications/message` (the SDK applies the client's level filter). */
export type LogSend = (level: LogLevel, data: unknown, logger?: string) => Promise<void>;

/**
 * A request as a transport serves it, before it is known what it calls (a listing, `tasks/*`, a
 * task listen) or for what every call shares: what is known about it and its channels. Immutable.
 */
export interface ServedRequest extends RequestFacts {
  /** The request's own signal (client cancellation, disconnect). */
  readonly signal?: AbortSignal;
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
  /** The request's telemetry, where the app has it (the transport starts it). */
  readonly trace?: CallTrace;
}

/**
 * One call of a member as it reaches the engine: a served request and what it calls, with the
 * untrusted material it carried. Built once, by whoever knows its subject (the transport for
 * `tools/call`, `prompts/get`, `resources/read` and `completion/complete`; the member router for a
 * template's list method; the lifecycle for a task's later round). Immutable: the engine builds
 * the call's own state from it.
 */
export interface CallRequest extends ServedRequest {
  /** What is called: the tool or prompt name, the resource URI, the completed prompt's name or template's URI. */
  readonly subject: string;
  /** Raw, untrusted arguments (tool arguments, prompt arguments, template variables, completion context). */
  readonly arguments?: Readonly<Record<string, unknown>>;
  /** Input that needs no validation (a completion's value, a template's variables). */
  readonly input?: unknown;
  /** How the call runs from its start. Default `'request'`; a task's later rounds are `'task'`. */
  readonly mode?: CallMode;
  /** With `mode: 'task'`: the task whose round this is (its outcome settles the task). */
  readonly task?: TaskHandle;
}
