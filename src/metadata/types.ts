import type { ClientCapabilities, ToolAnnotations } from '@modelcontextprotocol/server';
import type { CallContext } from '../types/context';
import type { MemberKind, OutputSpec, ParamKind } from '../types/core';
import type { Middleware } from '../types/middleware';
import type { PresenterRef } from '../types/presenter';
import type { Icon } from '../types/display';

/** Options of `@Action(name, options)` and `@Mutation(name, options)`. */
export interface ToolOptions {
  /** What the tool does, for the model. Required: a tool without one is a startup error. */
  description: string;
  /** Display name for people. */
  title?: string;
  /** Icons a client may show beside it: each an https: or data: URL, with its media type and sizes (checked at startup). */
  icons?: readonly Icon[];
  /**
   * Listed as the entry's `_meta`: a plain JSON object. Keys the MCP specification reserves
   * (`io.modelcontextprotocol/…`, any prefix with a `modelcontextprotocol` or `mcp` label) and the
   * framework's own (`io.mcpfusion/…`) are refused at startup.
   */
  _meta?: { readonly [key: string]: unknown };
  /**
   * The view (MCP Apps) a host renders this tool's results in: the `ui://` URI of a view the app
   * declares (`views: [view({ uri, … })]`). Listed as `_meta.ui.resourceUri` (and the deprecated
   * flat `_meta["ui/resourceUri"]`); a URI no view has is a startup error. The tool still returns
   * meaningful `content` for hosts that render no view.
   */
  view?: string;
  /**
   * Who may call the tool, as MCP Apps hosts read it (`_meta.ui.visibility`). Default
   * `['model', 'app']` (listed with a `view`); `['app']` for a tool only a view calls: the host
   * hides it from the model, and every server-side rule (scopes, queue, lock, questions) still applies.
   */
  visibility?: readonly ('model' | 'app')[];
  /** Overrides of the annotations the kind implies (`readOnlyHint`, `destructiveHint`, …). */
  annotations?: Partial<ToolAnnotations>;
  /**
   * The output class (or `[Class]` for a list). It is listed as `outputSchema`, and
   * `structuredContent` carries only the fields it declares: an allowlist.
   */
  output?: OutputSpec;
  /** A presenter class (resolved from the container) or instance that shapes the result. */
  presenter?: PresenterRef;
  /** Middleware run for this tool only, after global and class middleware. */
  middleware?: readonly Middleware[];
  /** Ends the call with a timeout tool error after this many milliseconds. */
  timeoutMs?: number;
  /**
   * Client capabilities the tool needs (for example `{ sampling: {} }`). A client that did not
   * declare them gets the protocol's missing-capability error (-32021) and the tool does not run.
   */
  requires?: ClientCapabilities;
  /**
   * Long work as a task (the 2026-07-28 tasks extension): `'optional'` runs the call as a task
   * for clients that declared the extension (and synchronously for others); `'required'` never
   * runs it synchronously (clients without the extension get -32021). The object form sets the
   * task's TTL and suggested polling interval (defaults: the app's `tasks` option), and when the
   * call becomes a task: `'when-waiting'` (default: once its handler waits on I/O or a timer, or
   * reports progress; questions before that are asked in the request) or `'at-once'`.
   */
  task?:
    | 'optional'
    | 'required'
    | {
        /** `'optional'`: a task when the client declared the extension; `'required'`: only ever a task. */
        support: 'optional' | 'required';
        /** How long the task and its result are kept from its creation, in milliseconds. Default: the app's `tasks.ttlMs`. */
        ttlMs?: number;
        /** The polling interval suggested to clients, in milliseconds. Default: the app's `tasks.pollIntervalMs`. */
        pollIntervalMs?: number;
        /** When the call becomes a task: `'when-waiting'` (default) or `'at-once'` (before the handler runs). */
        create?: 'when-waiting' | 'at-once';
      };
  /**
   * OAuth scopes the caller's token must grant (all of them) to use this tool. Over HTTP a
   * token without them is answered 403 `insufficient_scope` naming them, before anything runs.
   * Default: the class's `@ToolProvider({ scopes })`. Checked only where the call carries a
   * verified token (HTTP with `auth`, or `authInfo` in the harness); stdio carries none.
   */
  scopes?: readonly string[];
}

/**
 * Computes the keys a mutation serializes on from its validated input and its context: one key
 * or several (`invoice:42`). Mutations whose keys are disjoint run in parallel; those that share
 * a key run one at a time, in arrival order.
 */
export type LockKeysFunction<I = never, C extends object = never> = (input: I, ctx: CallContext<C>) => string | readonly string[];

/**
 * What a `@Mutation` serializes on: `'app'` (the default: one mutation of the app at a time, and
 * none while it runs), `'tool'` (the calls of this tool one at a time, in parallel with other
 * tools' keyed calls), or a {@link LockKeysFunction}.
 */
export type SerializeOn = 'app' | 'tool' | LockKeysFunction;

/** Options of `@Mutation(name, options)`: a tool's options, and what it serializes on. */
export interface MutationOptions extends ToolOptions {
  /**
   * What the mutation serializes on. Default `'app'`. Keys (`'tool'` or a function) are taken
   * after the input is validated, sorted, so several keys never deadlock; an app-wide mutation
   * waits for the keyed ones in flight and excludes them while it runs (a readers-writer lock).
   *
   * @example
   * ```ts
   * @Mutation('billing.refund', { description: 'Refund an invoice', serializeOn: (input: RefundRequest) => `invoice:${input.invoiceId}` })
   * ```
   */
  serializeOn?: SerializeOn;
}

/** Options of the `@ToolProvider()` class decorator. */
export interface ToolProviderOptions {
  /** Middleware run for every tool of the class, after global middleware. */
  middleware?: readonly Middleware[];
  /** Default presenter for the class's tools. */
  presenter?: PresenterRef;
  /** The OAuth scopes every tool, resource and prompt of the class needs, unless it declares its own `scopes`. */
  scopes?: readonly string[];
}

/** Suggests values for one argument of a prompt or one variable of a resource template. */
export type Completer = (
  value: string,
  context: { readonly arguments: Readonly<Record<string, string>> }
) => readonly string[] | Promise<readonly string[]>;

/** A completer function, or the name of a method of the same class (resolved per call, so it can use injected services). */
export type CompleterRef = Completer | string;

/** Options of `@Resource(uri, options)`. */
export interface ResourceOptions {
  /** A short identifier (`resources/list` name). */
  name: string;
  /** Display name for people, shown in the listing. */
  title?: string;
  /** Icons a client may show beside it: each an https: or data: URL, with its media type and sizes (checked at startup). */
  icons?: readonly Icon[];
  /**
   * Listed as the entry's `_meta`: a plain JSON object. Keys the MCP specification reserves
   * (`io.modelcontextprotocol/…`, any prefix with a `modelcontextprotocol` or `mcp` label) and the
   * framework's own (`io.mcpfusion/…`) are refused at startup.
   */
  _meta?: { readonly [key: string]: unknown };
  /** What the resource holds, shown in the listing. */
  description?: string;
  /** The content type of what the method returns (default: text/plain for strings, application/octet-stream for bytes, application/json for objects). */
  mimeType?: string;
  /**
   * The class (or `[Class]`) of the JSON the method returns: an allowlist, as for tools. Only
   * the fields it declares, nested ones included, reach the client.
   */
  output?: OutputSpec;
  /** Middleware run for this resource only, after global and class middleware. */
  middleware?: readonly Middleware[];
  /** Ends the read with a timeout error (-32603) after this many milliseconds. Default: none. */
  timeoutMs?: number;
  /**
   * OAuth scopes the caller's token must grant (all of them) to use this resource. Over HTTP a
   * token without them is answered 403 `insufficient_scope` naming them, before anything runs.
   * Default: the class's `@ToolProvider({ scopes })`. Checked only where the call carries a
   * verified token (HTTP with `auth`, or `authInfo` in the harness); stdio carries none.
   */
  scopes?: readonly string[];
}

/** Options of `@ResourceTemplate(uriTemplate, options)`. */
export interface ResourceTemplateOptions extends ResourceOptions {
  /** Completers for the template's variables. */
  complete?: Readonly<Record<string, CompleterRef>>;
  /** The name of a method of the class that lists concrete resources of this template (for `resources/list`). */
  list?: string;
}

/** Options of `@Prompt(name, options)`. */
export interface PromptOptions {
  /** What the prompt is for. Required. */
  description: string;
  /** Display name for people (`prompts/list`). */
  title?: string;
  /** Icons a client may show beside it: each an https: or data: URL, with its media type and sizes (checked at startup). */
  icons?: readonly Icon[];
  /**
   * Listed as the entry's `_meta`: a plain JSON object. Keys the MCP specification reserves
   * (`io.modelcontextprotocol/…`, any prefix with a `modelcontextprotocol` or `mcp` label) and the
   * framework's own (`io.mcpfusion/…`) are refused at startup.
   */
  _meta?: { readonly [key: string]: unknown };
  /** Completers for the prompt's arguments. */
  complete?: Readonly<Record<string, CompleterRef>>;
  /** Middleware run for this prompt only, after global and class middleware. */
  middleware?: readonly Middleware[];
  /** Ends the request with a timeout error (-32603) after this many milliseconds. Default: none. */
  timeoutMs?: number;
  /**
   * OAuth scopes the caller's token must grant (all of them) to use this prompt. Over HTTP a
   * token without them is answered 403 `insufficient_scope` naming them, before anything runs.
   * Default: the class's `@ToolProvider({ scopes })`. Checked only where the call carries a
   * verified token (HTTP with `auth`, or `authInfo` in the harness); stdio carries none.
   */
  scopes?: readonly string[];
}

/** Options of `@Interactive(options?)`. */
export interface InteractiveOptions {
  /**
   * Each `requestState` this member issues is accepted at most once: a client that echoes a
   * state it already used (a replayed confirmation) gets JSON-RPC -32602 and the handler does
   * not run. Use it for every member whose answers authorize an effect (a refund, a payment).
   * The continuation store remembers used states until they expire (in memory by default;
   * several instances need a shared store).
   */
  singleUseState?: boolean;
  /**
   * Read answers that a client sends with its FIRST call (no `requestState` yet) against the
   * requests the handler makes on that call. Off by default: such answers answer a question
   * the user never saw, so they are ignored and the question is asked. Allowed only on
   * read-only tools (`@Action` not annotated `readOnlyHint: false`); a startup error elsewhere.
   */
  answersUpFront?: boolean;
  /**
   * A confirmed round happens exactly once, even when its response stream breaks and the client
   * re-issues it (the 2026-07-28 rule: a broken stream loses the request; the client sends it
   * again with a new id): a re-issue of the same round (same `requestState`, arguments, answers
   * and caller) gets the first attempt's result without running anything, or waits for it while
   * it runs; the first attempt runs to its end even if its stream breaks. A re-issue that differs
   * is refused as a replay. Implies `singleUseState`. Tools only; the continuation store must
   * record outcomes (the default and the Redis store do).
   */
  exactlyOnce?: boolean;
}

/** A raw record of one kind decorator, as written. */
export interface KindRecord {
  readonly kind: MemberKind;
  readonly name: unknown;
  readonly options: unknown;
}

/** Everything the decorators recorded about one method. */
export interface MethodRecord {
  readonly kinds: KindRecord[];
  interactive: boolean;
  /** What `@Interactive(options)` was given. */
  interactiveOptions?: InteractiveOptions;
  readonly params: Map<number, ParamKind[]>;
}

/** Everything the decorators recorded about one class. */
export interface ClassRecord {
  provider?: ToolProviderOptions;
  readonly methods: Map<string | symbol, MethodRecord>;
  /** Misuses noticed while decorating (a decorator on a non-method); reported at startup. */
  readonly misuses: string[];
}
