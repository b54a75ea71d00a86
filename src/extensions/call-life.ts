/**
 * The extension API's point in a call's life (types only): what an extension may do around the
 * handler of the tools it applies to. The engine stays the one owner of the call: the extension
 * asks (answer now, stop following the request, abort, move the progress), the engine does it,
 * and tells the extension the call's outcome as the error boundary maps it.
 */
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { ToolInfo } from '../types/core';
import type { CallOutcome } from '../types/task-handle';
import type { ToolTaskSupport } from '../types/tasks';
import type { ExtensionRequest } from './extension-request';

/** A tool as a call-life point sees it at startup: what calls see of it (`ctx.tool`), and its declared `task` option. */
export interface CallLifeTool extends ToolInfo {
  /** Its `task` option, when it declares one. */
  readonly task?: ToolTaskSupport;
}

/** A progress report of the call, as a call-life point receives it once it moved the call's progress (see {@link ExtensionCall.reportProgressTo}). */
export type CallProgressReport = (
  percent: number,
  message: string | undefined,
  /** Set when the call reported a count (`progress({ progress, total })`): the values as given (`percent` is then their share). */
  count?: { readonly progress: number; readonly total?: number }
) => void | Promise<void>;

/**
 * A run of a call that answered its request early ({@link ExtensionCall.answerNow}): how it is
 * named, and what is told its end.
 */
export interface DetachedRun {
  /** Names the run in the server's log and telemetry (a task's id). */
  readonly id: string;
  /**
   * The call's outcome, as the error boundary maps it, once the call ended (its result, a tool
   * error included; the failure as a JSON-RPC error object; `cancelled` when it was aborted before it
   * completed). Called once; a failure of it is the extension's (it is caught and dropped).
   */
  settled(outcome: CallOutcome): void | Promise<void>;
}

/**
 * A later round of a detached call (what `ExtensionHost.runLaterRound` is given): the tool's call
 * run again, with no request of its own, as a further run of a call that answered early (a task's
 * round after `tasks/update` answered its question). Its outcome goes to `run.settled`, not to a request.
 */
export interface LaterRound {
  /** The tool to call: its chain as it is now (a tool removed meanwhile settles `run` with -32602 naming it). */
  readonly tool: string;
  /** The call's raw arguments (the first round's). */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The continuation the last round returned (`requestState` of its input-required result), raw. */
  readonly requestState?: string;
  /** The answers to the last round's requests for input, by the keys the tool asked with. */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /** What the client declared when the call began (the round's questions are checked against it). */
  readonly clientCapabilities?: ClientCapabilities;
  /** The run the round continues: `settled` is told its outcome as the error boundary maps it. */
  readonly run: DetachedRun;
  /** Aborts the round (a cancel, an expiry, the extension's stop): the run is then settled `cancelled`. */
  readonly signal: AbortSignal;
  /**
   * The request that resumed the call (the extension method's request that answered it): the
   * round runs as its caller (the principal a continuation is bound to), linked to its telemetry,
   * with what its connection can deliver.
   */
  readonly resumedBy: ExtensionRequest;
}

/**
 * One call of a tool a call-life point applies to, as the point sees it around the handler (and
 * a generator's driver): inside the queue slot, the locks and any question round, so a call
 * that answers early keeps its slot and lock while its handler runs on. Each method asks the
 * engine, which owns the call's life.
 */
export interface ExtensionCall {
  /** The tool called. */
  readonly tool: CallLifeTool;
  /**
   * The request's facts: `method` is `tools/call`, `params` `{ name, arguments }`, `signal` the
   * call's (aborted by the request's end until {@link detach}, by a timeout, by {@link abort},
   * by the app's shutdown), `clientSettings` the client's opt-in to this extension.
   */
  readonly request: ExtensionRequest;
  /** The call's raw arguments (untrusted; `{}` when there were none). */
  readonly arguments: Readonly<Record<string, unknown>>;
  /**
   * Whether the call answers no request of its own: it already answered ({@link answerNow}),
   * or it is a later run of one that did (a {@link LaterRound}: a task's round after `tasks/update`).
   */
  readonly answered: boolean;
  /** Closes the call's log: its `ctx.log` messages are dropped from now on (a call that may outlive its request has no stream for them). */
  closeLog(): void;
  /**
   * The call's progress goes to `report` from now on, instead of the request's progress
   * notifications (coalesced alike: a report not above the last one is dropped).
   */
  reportProgressTo(report: CallProgressReport): void;
  /** The call stops following its request's signal: the request ending (the client cancels, goes away) no longer aborts it. */
  detach(): void;
  /**
   * Aborts the call (a task's cancel, say), `reason` saying why: its stages let go (slot, lock,
   * transaction) and, once it answered early, its run is settled `cancelled`.
   */
  abort(reason?: unknown): void;
  /**
   * Answers the request now with `result`, while the call runs on; the call's outcome is then
   * the run's, told to `run.settled` (not to the request). Call {@link detach} first when the
   * request's end must not stop the run. Once per call; a call that ended meanwhile settles
   * `run` at once, cancelled.
   */
  answerNow(result: Record<string, unknown>, run: DetachedRun): void;
}

/**
 * An extension's part in the life of calls (`FusionExtension.callLife`): which tools it
 * applies to, decided once per tool at startup (a tool it does not apply to gets nothing of it,
 * not even a check per call), and what it does around each call of them.
 *
 * @example
 * ```ts
 * // Answers a slow report's call at once with a receipt; the outcome is kept for later.
 * const receipts: FusionExtension = {
 *   id: 'com.example/receipts',
 *   callLife: {
 *     appliesTo: (tool) => tool.name === 'report.generate',
 *     around: (call, next) => {
 *       const id = randomUUID();
 *       call.detach();
 *       call.answerNow({ content: [{ type: 'text', text: `receipt ${id}` }] }, { id, settled: (outcome) => store.set(id, outcome) });
 *       return next();
 *     }
 *   }
 * };
 * ```
 */
export interface ExtensionCallLife {
  /** Whether it takes part in the calls of this tool (asked once per tool, at startup). */
  appliesTo(tool: CallLifeTool): boolean;
  /**
   * A check of each call of a tool it applies to, before the call takes anything (before the
   * queue slot, the middleware and the locks, where scopes and `requires` are checked): asked once
   * per tool at startup, it returns the check, or undefined when that tool's calls need none (they
   * then get no check at all). The check throws to refuse the call (a `FusionError`, as the error
   * boundary maps it: `MissingCapabilityError` for -32021); it runs whether or not the extension
   * has started, so it reads the request and nothing else. The tasks extension refuses with it a
   * call of a `task: 'required'` tool from a request that does not accept tasks.
   */
  checkFor?(tool: CallLifeTool): ((request: ExtensionRequest) => void) | undefined;
  /**
   * Runs around each call of a tool it applies to: `next()` runs the handler and settles with
   * what it returned (or rejects with what it threw); `around` returns that (or throws it).
   * Several extensions' points nest in the order of `extensions`, the first outermost.
   */
  around(call: ExtensionCall, next: () => Promise<unknown>): Promise<unknown>;
}
