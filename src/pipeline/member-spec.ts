import type { ClientCapabilities } from '@modelcontextprotocol/server';
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
