import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { DependencyContainer } from 'tsyringe';
import type { ContextFactory } from '../types/context';
import type { ProviderSpec } from '../types/provider';
import type { LockKeysFunction } from '../metadata/types';
import type { InputValidator } from '../schema/input-validator';
import type { CallKind, Constructor, MemberKind, ToolInfo } from '../types/core';
import type { Middleware } from '../types/middleware';
import type { ToolTaskSupport } from '../types/tasks';
import type { NamedStep } from './steps/named-step';

/**
 * What any member (tool, resource, template, `list` method, prompt, completer) is compiled from:
 * its facts, each once. `info` is what the call sees of it (`ctx.tool`), built by the surface
 * (`memberInfo`) and shared as is by the presentation step, the chain and the compiled member.
 */
export interface MemberSpec {
  readonly kind: CallKind;
  /** The member as calls see it (`ctx.tool`): its name, kind, class, method, whether it asks, its scopes. */
  readonly info: ToolInfo;
  /** How messages name it (`Tool billing.refund`). */
  readonly label: string;
  readonly target: Constructor;
  readonly singleUseState: boolean;
  readonly answersUpFront?: boolean;
  /** A re-issued round gets the first attempt's outcome (tools). */
  readonly exactlyOnce?: boolean;
  /** What its continuation state is bound to (default: `name`). */
  readonly bindingName?: string;
  readonly requires?: ClientCapabilities;
  readonly task?: ToolTaskSupport;
  readonly timeoutMs?: number;
  readonly mutation?: boolean;
  /** A keyed mutation's keys (absent: app-wide). */
  readonly lockKeys?: LockKeysFunction;
  readonly isGenerator?: boolean;
  /** Class, then method middleware, as the registry resolved them (global middleware is added here). */
  readonly middleware: readonly Middleware[];
  /** A presenter class the call resolves, where it has one. */
  readonly presenterClass?: Constructor;
  readonly validate?: InputValidator;
  readonly present: NamedStep;
  readonly terminal: NamedStep;
  /** The terminal hands the handler its input scope as a parameter (`ParamKind` `'inputScope'`): no ambient scope is set up for its calls. */
  readonly inputScopeParam?: boolean;
  /** The mount it belongs to, when it is a mounted member: it lives in that mount's home (`ChainDependencies.homes`); absent: the app's. */
  readonly mountedUnder?: string;
}

/**
 * Where a member lives when it is not the app's own (a mounted app's member, `compose/mount.ts`):
 * the container its classes are resolved from (a child of the app's, holding the mount's
 * providers), and the `contextFactory` its calls use (the mount's, else the app's).
 */
export interface MemberHome {
  /** The mount's namespace (for messages). */
  readonly namespace: string;
  /** The mount's container: a child of the app's container, with the mount's providers registered in it. */
  readonly container: DependencyContainer;
  /** The providers registered in it (what the startup checks read). */
  readonly providers: readonly ProviderSpec[];
  /** The mount's own `contextFactory`, when it has one. */
  readonly contextFactory?: ContextFactory;
  /** Whether resolving these classes from its container reaches a per-call token (see `needsCallScope`). */
  readonly needsCallScope: (classes: readonly Constructor[]) => boolean;
}

/** A member's facts as calls see them (`ctx.tool`), frozen: built once per member by the surface that compiles it. */
export function memberInfo(
  name: string,
  kind: MemberKind,
  interactive: boolean,
  className: string,
  methodName: string,
  scopes: readonly string[]
): ToolInfo {
  return Object.freeze({ name, kind, interactive, className, methodName, scopes });
}
