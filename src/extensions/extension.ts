/**
 * The extension API (SEP-2133 extensions, written for this framework): what an extension
 * declares. Types only; `extension-set.ts` checks a set of them at startup and serves them. The
 * framework's own extensions (tasks, views, skills) are written in it.
 */
import type { ReadResourceResult, Resource } from '@modelcontextprotocol/server';
import type { Middleware } from '../types/middleware';
import type { ExtensionCallLife, LaterRound } from './call-life';
import type { ExtensionRequest } from './extension-request';

export type { ExtensionRequest } from './extension-request';

/** A method an extension serves: its result (an object; `resultType` is added on 2026-07-28), or a thrown `FusionError`. */
export type ExtensionMethod = (request: ExtensionRequest) => Record<string, unknown> | Promise<Record<string, unknown>>;

/**
 * Resources an extension serves beside the app's own (skill files, say): `resources/read` of a
 * URI it `owns` reaches `read`, after the app's own resources and templates have not matched,
 * through a chain compiled for the extension like any resource's (see {@link ExtensionResources.scopes}).
 */
export interface ExtensionResources {
  /** Whether the URI is one of this extension's (it then answers for it, found or not). */
  owns(uri: string): boolean;
  /** The read result; throw `UnknownResourceError` (`@mcpfusion/core/advanced`; -32602) for a URI it does not serve. */
  read(uri: string, request: ExtensionRequest): ReadResourceResult | Promise<ReadResourceResult>;
  /** What `resources/list` shows of them (a small set, not paged). Absent: nothing is listed. */
  list?(): readonly Resource[];
  /**
   * The OAuth scopes a read of any of them needs (with `auth`), checked like a resource's
   * `scopes`. Default: none. A read runs through a chain like any resource's: queue slot, scope
   * check, the extensions' `steps` and the app's middleware, timeouts, telemetry.
   */
  readonly scopes?: readonly string[];
}

/**
 * Where an extension's middleware sits in every member's chain: `outer` before the app's
 * global middleware (it sees the call first and the result last), `inner` after it (closest to
 * the class and method middleware). Both run inside the queue slot, after scopes are checked.
 */
export interface ExtensionSteps {
  /** Run before the app's `middleware`. */
  readonly outer?: readonly Middleware[];
  /** Run after the app's `middleware`, before class and method middleware. */
  readonly inner?: readonly Middleware[];
}

/** A `subscriptions/listen` an extension answers: the request, with the listen's JSON-RPC id (its stream's messages name it). */
export interface ExtensionListenRequest extends ExtensionRequest {
  /** The listen request's id. */
  readonly id: string | number;
}

/**
 * Listens an extension answers (on HTTP, 2026-07-28): a `subscriptions/listen` whose params it
 * `accepts` (what its `notifications` name, say) is answered by its `open`, not by the core
 * listen router. The tasks extension's task-status listens are served this way.
 */
export interface ExtensionListens {
  /** Whether the listen's params (untrusted) are this extension's to answer. */
  accepts(params: Readonly<Record<string, unknown>>): boolean;
  /**
   * The listen's HTTP response: its stream of JSON-RPC messages (server-sent events), ended when
   * `request.signal` aborts (the client closed it). A thrown `FusionError` is the listen's JSON-RPC error.
   */
  open(request: ExtensionListenRequest): Promise<Response>;
}

/** What an extension's `start` is given. */
export interface ExtensionHost {
  /** Where the framework's diagnostics go (the app's `logger`). */
  log(message: string): void;
  /** Tells connected clients that the resource list changed (`notifications/resources/list_changed`). */
  resourcesChanged(): void;
  /**
   * Runs a later round of a call that answered its request early (see {@link ExtensionCall.answerNow}):
   * the tool is called again, detached, with the round's arguments, continuation and answers, as
   * the caller of `round.resumedBy`; its call-life points see it as `answered`; its outcome goes to
   * `round.run.settled` as the error boundary maps it. Returns at once (the round runs in the
   * background, in the queue like any call); `round.signal` aborts it.
   *
   * @example
   * ```ts
   * // An extension method that resumes a parked call with the client's answers.
   * 'com.example/parked/resume': (request) => {
   *   const parked = parkedCalls.take(String(request.params.id));
   *   host.runLaterRound({ ...parked, inputResponses: request.inputResponses, signal: parked.abort.signal, resumedBy: request });
   *   return {};
   * }
   * ```
   */
  runLaterRound(round: LaterRound): void;
}

/**
 * An extension of the app (`FusionApp.create({ extensions: [...] })`). Checked at startup, every
 * problem reported at once: `id` follows the 2026-07-28 rule (`{vendor-prefix}/{name}`, the
 * prefix reverse DNS labels; a prefix whose second label is `modelcontextprotocol` or `mcp` is
 * reserved for MCP and refused unless the id is one of the official extensions'); a method may
 * not be a core method (`tools/call`, `notifications/…`) nor another extension's.
 *
 * @example
 * ```ts
 * const clock: FusionExtension = {
 *   id: 'com.example/clock',
 *   settings: { precision: 'ms' },
 *   methods: { 'clock/now': () => ({ now: Date.now() }) }
 * };
 * const app = FusionApp.create({ tools: [BillingTools], extensions: [clock] });
 * ```
 */
export interface FusionExtension {
  /** The extension's identifier (`com.example/clock`), the key of its settings in `capabilities.extensions`. */
  readonly id: string;
  /** What the server advertises for it in `capabilities.extensions[id]` (`initialize` and `server/discover`). Default `{}`. */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** The methods it serves, by method name. */
  readonly methods?: Readonly<Record<string, ExtensionMethod>>;
  /**
   * Whether its methods need the client's opt-in: a request whose client did not declare the
   * extension is refused with -32021 (MissingRequiredClientCapability) before the method runs.
   * Default `false` (the method reads `clientSettings` itself if it cares).
   */
  readonly requiresOptIn?: boolean;
  /** Middleware it adds to every member's chain, and where (see {@link ExtensionSteps}). */
  readonly steps?: ExtensionSteps;
  /** Resources it serves beside the app's own. */
  readonly resources?: ExtensionResources;
  /** Listens (`subscriptions/listen`) it answers. */
  readonly listens?: ExtensionListens;
  /**
   * Its part in the life of the calls of the tools it applies to (decided at startup), around
   * their handler: answer early, follow or not the request's signal, move the call's progress
   * (see {@link ExtensionCallLife}). The tasks extension makes calls into tasks with it.
   */
  readonly callLife?: ExtensionCallLife;
  /**
   * Runs once before the extension serves anything: awaited by `listen()`, and by the first
   * request that reaches the extension otherwise. A failure is that request's error (and
   * `listen()`'s).
   */
  start?(host: ExtensionHost): void | Promise<void>;
  /** Runs once at `app.close()`, after calls are aborted. */
  stop?(): void | Promise<void>;
}
