/**
 * The pure types that many layers share: a leaf of the import graph, importing nothing of the
 * framework (test/unit/layers.test.ts keeps it so). Everything else builds on these.
 */
import type { AuthInfo, ClientCapabilities } from '@modelcontextprotocol/server';

/** A class constructor. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Constructor<T = unknown> = new (...args: any[]) => T;

/** The two tool kinds: read-only actions and destructive, serialized mutations. */
export type ToolKind = 'action' | 'mutation';

/** What a decorated method serves: a tool of either kind, a resource, a resource template, or a prompt. */
export type MemberKind = ToolKind | 'resource' | 'resource-template' | 'prompt';

/**
 * What a method parameter receives. `'inputScope'`: an interactive member's input so far (what
 * `readInput` and friends read), given only to members a member source builds (no decorator
 * gives it); such a member's calls run outside the ambient scope.
 */
export type ParamKind = 'input' | 'context' | 'signal' | 'inputScope';

/** The output of a member: a class (an object) or `[Class]` (a list of them). */
export type OutputSpec = Constructor | [Constructor];

/** A JSON Schema document (as plain JSON). */
export type JsonSchema = { [key: string]: unknown };

/** The kinds of request a chain serves. */
export type CallKind = 'tool' | 'resource' | 'prompt' | 'completion';

/**
 * How a call runs: answered in its request (`'request'`), or as a task of the tasks extension
 * (`'task'`: its outcome is the task's, read with `tasks/get`). A call-life point that answers
 * early (the tasks extension's) turns a request into one; a task's later rounds start as one.
 */
export type CallMode = 'request' | 'task';

/** The kinds of request for input a handler can make. */
export type InputKind = 'form' | 'url' | 'sampling' | 'roots';

/**
 * The kinds of requests for input a connection can deliver. `reason` says why nothing can be
 * delivered at all (no live channel); a single missing kind is explained from the kind.
 */
export type InputChannel = { readonly [K in InputKind]: boolean } & { readonly reason?: string };

/** The protocol era of a connection: 2025-era (`initialize`, sessions) or 2026-07-28. */
export type Era = 'legacy' | 'modern';

/** What a call knows about the tool (or prompt, or resource) it runs: what middleware and presenters see as `ctx.tool`. */
export interface ToolInfo {
  /** Its name as clients see it (a prompt's name, a resource's URI or template). */
  readonly name: string;
  /** What it is: `action`, `mutation`, `resource`, `resource-template` or `prompt`. */
  readonly kind: MemberKind;
  /** Whether it is `@Interactive()` (may ask for input). */
  readonly interactive: boolean;
  /** The class that declares it. */
  readonly className: string;
  /** The method that handles it. */
  readonly methodName: string;
  /** The OAuth scopes a caller's token must grant to run it (empty: none). */
  readonly scopes: readonly string[];
}

/**
 * What the transport knows about the request behind a call (the first of the request types:
 * `RequestExtra` adds the call's signal and raw arguments for `contextFactory`; the engine's
 * `CallRequest` adds the untrusted material a request carries).
 */
export interface RequestFacts {
  /** JSON-RPC id (absent for calls made through the test harness). */
  readonly requestId?: string | number;
  /** The request's `_meta` (progress token and so on), envelope keys lifted out. */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** Validated auth info, when the HTTP layer set it. */
  readonly authInfo?: AuthInfo;
  /** The HTTP request, on HTTP transports. */
  readonly httpRequest?: Request;
  /** The 2025-era session id, when there is one. */
  readonly sessionId?: string;
  /** The client's network address (HTTP), what per-caller quotas fall back on without a token. */
  readonly remoteAddress?: string;
  /** The protocol era of the connection (absent for calls made through the test harness). */
  readonly era?: Era;
  /** What the client declared it can do (per request on 2026-07-28; from `initialize` on 2025-era connections). */
  readonly clientCapabilities?: ClientCapabilities;
  /**
   * Closes the SSE stream this request is answered on, where the transport can resume it
   * (2025-era HTTP sessions, which keep an event store): the client reconnects with
   * `Last-Event-ID` and receives the rest, the response included. Absent elsewhere.
   */
  readonly closeStream?: () => void;
}
