import type { ClientCapabilities, ToolAnnotations, ToolExecution } from '@modelcontextprotocol/server';
import type { Middleware } from '../types/middleware';
import type { PresenterRef } from '../types/presenter';
import type { ToolTaskSupport } from '../types/tasks';
import type { SerializeOn } from './types';
import type { Icon } from '../types/display';
import type { Constructor, JsonSchema, OutputSpec, ParamKind, ToolKind } from '../types/core';

/** Everything the framework needs to serve one tool, built and validated once at startup. */
export interface ToolDescriptor {
  /** The tool's name, as listed and called (`billing.refund`). */
  readonly name: string;
  /** `'action'` (`@Action`, read-only) or `'mutation'` (`@Mutation`, serialized). */
  readonly kind: ToolKind;
  /** Whether the method is marked `@Interactive` (it may ask the user mid-call). */
  readonly interactive: boolean;
  /**
   * What the listing says where the chain alone does not decide it (a gateway's proxied tool:
   * its chain can forward any question, the listing says what the upstream is known to do):
   * `interactive`, whether the tool is listed as one that may ask (absent: as `interactive`);
   * `execution`, the listed `execution` (absent: from `task`).
   */
  readonly listed?: {
    /** Whether the listing says the tool may ask (absent: as `interactive`). */
    readonly interactive?: boolean;
    /** The listed `execution` (absent: from `task`). */
    readonly execution?: ToolExecution;
  };
  /** Interactive: each issued `requestState` is accepted once. */
  readonly singleUseState: boolean;
  /** Interactive, read-only: answers sent with the first call are read (see `InteractiveOptions`). */
  readonly answersUpFront: boolean;
  /** Interactive: a re-issue of a round (same state, arguments, answers, caller) gets the first attempt's outcome. */
  readonly exactlyOnce: boolean;
  /** What the tool does, for the model (the `description` option). */
  readonly description: string;
  /** Display name for people (the `title` option). */
  readonly title?: string;
  /** Icons listed with the tool (the `icons` option, checked). */
  readonly icons?: readonly Icon[];
  /** The tool's own `_meta` (the `_meta` option, checked), listed under the framework's keys. */
  readonly meta?: { readonly [key: string]: unknown };
  /** The `ui://` URI of the view a host renders the tool's results in (the `view` option). */
  readonly view?: string;
  /** Who may call the tool, as MCP Apps hosts read it (the `visibility` option). */
  readonly visibility?: readonly ('model' | 'app')[];
  /** The annotations listed: those the kind implies, `title`, then the `annotations` option over them. */
  readonly annotations: ToolAnnotations;
  /** The class that declares the method (resolved from the app's container per call). */
  readonly target: Constructor;
  /** The class's name, for messages. */
  readonly className: string;
  /** The name of the method that serves the tool. */
  readonly methodName: string;
  /** What each parameter of the method receives, by position. */
  readonly params: readonly ParamKind[];
  /** The class of the `@Input()` parameter, if the method has one. */
  readonly inputType?: Constructor;
  /** The output class (or `[Class]`): the `outputSchema` and the allowlist of `structuredContent`. */
  readonly output?: OutputSpec;
  /** The presenter that shapes the result: the tool's own, else its class's; absent: the app's `presenter`, else the built-in shaping. */
  readonly presenter?: PresenterRef;
  /** Class, then method middleware (global middleware is added by the app). */
  readonly middleware: readonly Middleware[];
  /** Ends the call with a timeout tool error after this many milliseconds; absent: no timeout. */
  readonly timeoutMs?: number;
  /** Client capabilities the tool needs. */
  readonly requires?: ClientCapabilities;
  /** OAuth scopes a caller's token must grant (its own, else the class's; empty: none). */
  readonly scopes: readonly string[];
  /** How the tool takes part in tasks; absent: never a task. */
  readonly task?: ToolTaskSupport;
  /** Mutations: what they serialize on (absent for actions; `'app'` by default). */
  readonly serializeOn?: SerializeOn;
  /** Whether the method is a generator function (its results are driven by the generator driver). */
  readonly isGenerator: boolean;
  /** The namespace of the mount it comes from (`compose/mount.ts`), when it is a mounted app's: it is resolved from that mount's container. */
  readonly mountedUnder?: string;
  /**
   * A member described by JSON Schema rather than by classes (a gateway's proxied tool): its
   * `inputSchema` is listed as given and checks the raw arguments (no input class), and its
   * `outputSchema`, when present, is listed and held to as given.
   */
  readonly schemas?: {
    /** The tool's `inputSchema`, listed as given; the raw arguments are checked against it. */
    readonly input: JsonSchema;
    /** The tool's `outputSchema`, listed and held to as given (absent: the tool lists none). */
    readonly output?: JsonSchema;
  };
}
