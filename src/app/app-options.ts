import type { DependencyContainer } from 'tsyringe';
import type { TelemetryOptions } from '../telemetry/telemetry-options';
import type { AuthOptions } from '../auth/http-auth';
import type { ServerEventBus } from '@modelcontextprotocol/server';
import type { TaskSettings } from '../tasks/app-tasks';
import type { CallQueue, CallQueueOptions } from '../concurrency/call-queue';
import type { MutationLock } from '../concurrency/fifo-mutex';
import type { ContinuationStore } from '../interactive/continuation-store';
import type { Constructor } from '../types/core';
import type { Gateway } from '../metadata/member-source';
import type { ProviderSpec } from '../types/provider';
import type { ReservedContextField, RequestExtra } from '../types/context';
import type { Middleware } from '../types/middleware';
import type { PresenterRef } from '../types/presenter';
import type { HttpHandlerOptions } from '../transports/http/fusion-http-handler';
import type { ViewOptions } from '../types/view-options';
import type { FusionExtension } from '../extensions/extension';
import type { Mount } from '../compose/mount';
import type { ToolSearchSetting } from '../tool-search/tool-search-options';

export type { ProviderSpec } from '../types/provider';

/**
 * What a `contextFactory` may return: anything but the fields the framework sets on every call
 * context (`signal`, `auth`, `tool`, …), which would be shadowed (a type error here, and refused
 * on the call at run time, naming the field).
 */
export type WithoutFrameworkFields<C> = C & { readonly [K in ReservedContextField]?: never };

/** Options of `FusionApp.create`. */
export interface FusionAppOptions<C extends object = Record<string, unknown>> {
  /** Server name announced to clients. Default `mcpfusion-app`. */
  name?: string;
  /** Server version announced to clients. Default `0.0.0`. */
  version?: string;
  /** Instructions for the model, announced at connect. */
  instructions?: string;
  /** The tool classes (each decorated with `@ToolProvider()`). */
  tools: readonly Constructor[];
  /**
   * Other MCP servers put behind this one (`await proxy(target, { namespace })`, from
   * `src/gateway`): their tools are listed and served through this app's chain (scopes, queue,
   * telemetry), and their list changes reach this app's clients. The app closes them when it
   * closes. A tool name that clashes with another member is a startup error naming both.
   *
   * @example
   * ```ts
   * const desk = await proxy({ command: 'node', args: ['desk.js', '--stdio'] }, { namespace: 'desk' });
   * const app = FusionApp.create({ tools: [], gateways: [desk] });
   * ```
   */
  gateways?: readonly Gateway[];
  /**
   * Views (MCP Apps): HTML documents a host renders beside the tools that name them
   * (`@Action(name, { view: 'ui://…' })`), each declared with `view({ uri, name, html, … })` and
   * served as a `ui://` resource. With at least one, the app advertises the
   * `io.modelcontextprotocol/ui` extension. Checked at startup (URIs, documents, CSP origins).
   */
  views?: readonly ViewOptions[];
  /**
   * Extensions (SEP-2133): each declares its id, the settings advertised in
   * `capabilities.extensions`, the methods it serves, its middleware and where it sits in the
   * chain, its resources, and its start and stop (see {@link FusionExtension}; `skills()` is one).
   * Checked at startup: a malformed or reserved id, or a core method name, is refused.
   */
  extensions?: readonly FusionExtension[];
  /**
   * Tool classes (or another app's, `mount('desk', otherApp)`) served under a namespace: tools
   * and prompts as `<namespace>.<name>`, resources and templates as `<namespace>+<scheme>:<rest>`
   * (see {@link mount}). A name or URI clash is refused at startup, naming both sides.
   */
  mounts?: readonly Mount[];
  /**
   * Tool search for large catalogs (a gateway in front of many servers, say): `tools/list` shows
   * a search tool (`search_tools`, a query and an optional limit) and a call tool (`call_tool`, a
   * name and arguments) instead of every tool, and the model finds tools by what they do (BM25
   * over names, titles, descriptions and parameters; no network, no model). A search answers with
   * the tools' full listing entries (input schemas, annotations). A tool called through the call
   * tool runs through its own chain (scopes, locks, questions, progress, tasks), and every tool
   * stays callable by its own name. Tools added or removed at run time are found from the next
   * search on. `true` for the defaults, or {@link ToolSearchOptions} (names, limits, pinned tools).
   * Default off. See docs/tool-search.md.
   *
   * @example
   * ```ts
   * const app = FusionApp.create({ tools: [], gateways: [desk, files, crm], toolSearch: true });
   * ```
   */
  toolSearch?: ToolSearchSetting;
  /** Services for the app's container. Registered as singletons unless a factory or value says otherwise. */
  providers?: readonly ProviderSpec[];
  /** Makes the per-call app context from the raw request. `signal` and the framework fields are added to what it returns. */
  contextFactory?: (extra: RequestExtra) => WithoutFrameworkFields<C> | Promise<WithoutFrameworkFields<C>>;
  /** Middleware for every tool, run before class and method middleware. */
  middleware?: readonly Middleware[];
  /** The presenter for tools that name none (default: the built-in shaping). */
  presenter?: PresenterRef;
  /**
   * How long a tool's presenter may take once the tool has run, in ms (default 10,000). The
   * tool's outcome is decided by then, so no cancel or timeout interrupts presenting; a presenter
   * that overruns this answers an `isError` result (`PRESENTATION_FAILED`), its work stands.
   */
  presenterTimeoutMs?: number;
  /** Limits of the default call queue, or a queue of your own (for example one shared through Redis). */
  concurrency?:
    | CallQueueOptions
    | {
        /** The queue that admits calls, used as given (its limits are its own). */
        queue: CallQueue;
      };
  /** The lock that serializes mutations. Default: an in-process FIFO mutex. */
  mutationLock?: MutationLock;
  /** The parent container. Default: a child of tsyringe's root container (the root itself is never written to). */
  parentContainer?: DependencyContainer;
  /** Called by `close()` after calls are aborted and transports closed: release your resources here. */
  onClose?: () => void | Promise<void>;
  /**
   * Where the framework's own diagnostics go, among them every unexpected exception and every
   * output mismatch of a call (with the member, the call's JSON-RPC id and the stack; never sent
   * to the client). Default: stderr. Never stdout.
   */
  logger?: (message: string) => void;
  /**
   * Hide the message of every unexpected exception from clients: a thrown `Error` that is not a
   * `FusionError` (a `ToolError` is one) reaches the client as `Internal error (reference …)`,
   * and the original, with its stack, goes to `logger` under the same reference. Default
   * `false`: messages are sent as thrown (never a stack trace). Turn it on where driver errors
   * or internals must not leak.
   */
  maskErrors?: boolean;
  /**
   * HMAC key (at least 32 bytes) that signs the continuation state of interactive calls.
   * Default: `FUSION_STATE_KEY`, else a random per-process key (several instances must share one).
   */
  stateKey?: string | Uint8Array;
  /** How long a continuation stays valid, in seconds. Default 600. */
  stateTtlSeconds?: number;
  /** Where continuation state is kept. Default: in the signed token itself (`SignedContinuationStore`). */
  continuationStore?: ContinuationStore;
  /**
   * The caller a continuation (`requestState`) and a 2025-era session are bound to: a state
   * issued to one caller is refused for another. Default: `user:<sub>` for a token issued to a
   * person, `client:<client id>` for a machine client's (a token without `sub`, or whose `sub`
   * is its own client id): the two never meet.
   */
  principalOf?: (extra: RequestExtra) => string | undefined;
  /**
   * Makes the HTTP endpoint (`listen({ transport: 'http' })`, `createHttpHandler`) an OAuth 2.1
   * resource server: every request needs a valid bearer token (401 otherwise), a member that
   * declares `scopes` needs a token that grants them (403 `insufficient_scope`), and the RFC 9728
   * metadata is served at `/.well-known/oauth-protected-resource`. stdio is not affected.
   */
  auth?: AuthOptions;
  /**
   * Tasks (the 2026-07-28 extension): where records live (default in memory; `SqliteTaskStore`
   * survives restarts), their TTL, the polling interval suggested, and how many may be live.
   * Used by tools that declare `task` in their options.
   */
  tasks?: TaskSettings;
  /**
   * Where change notifications (list_changed, resources/updated) travel. Default: this process
   * only. Several instances share one (`RedisServerEventBus` from `@mcpfusion/core/redis`): a
   * change on one instance then reaches 2026-era listen streams and 2025-era sessions on all.
   */
  bus?: ServerEventBus;
  /**
   * OpenTelemetry (the API only; the SDK is yours): one server span per MCP request, named and
   * attributed per the MCP semantic conventions, with the chain's stages as child spans, and the
   * `mcp.server.operation.duration` histogram with the framework's own metrics. Default: the
   * providers registered globally (register them before `FusionApp.create()`); with none, every
   * span and metric is a no-op. `false` builds the app without any telemetry code in its chains.
   */
  telemetry?: TelemetryOptions | false;
}

/** Options of `app.listen()`. */
export type ListenOptions =
  | {
      /** Serve one client over this process's stdin and stdout. */
      transport: 'stdio';
      /** Install SIGINT/SIGTERM handlers for graceful shutdown. Default true. */
      handleSignals?: boolean;
    }
  | ({
      /** Serve Streamable HTTP on `host`:`port`. */
      transport: 'http';
      /** Default 127.0.0.1. Binding elsewhere requires `allowedHosts`. */
      host?: string;
      /** Default 3000; 0 picks a free port. */
      port?: number;
      /** Install SIGINT/SIGTERM handlers for graceful shutdown. Default true. */
      handleSignals?: boolean;
      /**
       * A connection that sends nothing (not a byte of a request) within this many milliseconds
       * is closed, so idle sockets cannot exhaust file descriptors (Node's own header timeout
       * starts only at the first byte). Default 10,000.
       */
      idleConnectionTimeoutMs?: number;
    } & HttpHandlerOptions);
