import type { ClientCapabilities, ToolAnnotations } from '@modelcontextprotocol/server';
import type { Middleware } from '../types/middleware';
import type { PresenterRef } from '../types/presenter';
import type { ToolTaskSupport } from '../types/tasks';
import type { Constructor, OutputSpec, ParamKind, SerializeOn, ToolKind } from './types';

/** Everything the framework needs to serve one tool, built and validated once at startup. */
export interface ToolDescriptor {
  readonly name: string;
  readonly kind: ToolKind;
  readonly interactive: boolean;
  /** Interactive: each issued `requestState` is accepted once. */
  readonly singleUseState: boolean;
  /** Interactive, read-only: answers sent with the first call are read (see `InteractiveOptions`). */
  readonly answersUpFront: boolean;
  /** Interactive: a re-issue of a round (same state, arguments, answers, caller) gets the first attempt's outcome. */
  readonly exactlyOnce: boolean;
  readonly description: string;
  readonly title?: string;
  readonly annotations: ToolAnnotations;
  readonly target: Constructor;
  readonly className: string;
  readonly methodName: string;
  /** What each parameter of the method receives, by position. */
  readonly params: readonly ParamKind[];
  /** The class of the `@Input()` parameter, if the method has one. */
  readonly inputType?: Constructor;
  readonly output?: OutputSpec;
  readonly presenter?: PresenterRef;
  /** Class, then method middleware (global middleware is added by the app). */
  readonly middleware: readonly Middleware[];
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
}
