import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { LockKeysFunction } from '../metadata/types';
import type { InputValidator } from '../schema/input-validator';
import type { CallKind, Constructor, MemberKind } from '../types/core';
import type { Middleware } from '../types/middleware';
import type { ToolTaskSupport } from '../types/tasks';
import { buildChain, type ChainDependencies } from './chain-builder';
import type { CompiledMember } from './call-state';
import { isMiddlewareClass } from './middleware';
import type { NamedStep } from './steps/named-step';

/** What any member (tool, resource, template, `list` method, prompt, completer) is compiled from. */
export interface MemberSpec {
  readonly kind: CallKind;
  /** The decorated method's kind (`ctx.tool.kind`). */
  readonly memberKind: MemberKind;
  /** The name it is known by (the tool's or prompt's name, the resource's URI or URI template). */
  readonly name: string;
  /** How messages name it (`Tool billing.refund`). */
  readonly label: string;
  readonly target: Constructor;
  readonly className: string;
  readonly methodName: string;
  readonly interactive: boolean;
  readonly singleUseState: boolean;
  readonly answersUpFront?: boolean;
  /** A re-issued round gets the first attempt's outcome (tools). */
  readonly exactlyOnce?: boolean;
  /** What its continuation state is bound to (default: `name`). */
  readonly bindingName?: string;
  readonly scopes: readonly string[];
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

/**
 * The one compile path: every kind of member becomes a chain here, fed with its own
 * presentation and terminal steps; global middleware is merged here and nowhere else.
 */
export function compileMember(spec: MemberSpec, deps: ChainDependencies): CompiledMember {
  const info = Object.freeze({
    name: spec.name,
    kind: spec.memberKind,
    interactive: spec.interactive,
    className: spec.className,
    methodName: spec.methodName,
    scopes: spec.scopes
  });
  const middleware = [...deps.globalMiddleware, ...spec.middleware];
  const classes: Constructor[] = [spec.target, ...middleware.filter(isMiddlewareClass)];
  if (spec.presenterClass) classes.push(spec.presenterClass);
  const escalates = spec.task !== undefined && deps.tasks !== undefined;
  const { steps, run } = buildChain(
    {
      kind: spec.kind,
      name: spec.name,
      label: spec.label,
      requires: spec.requires,
      scopes: spec.scopes,
      task: spec.task,
      timeoutMs: spec.timeoutMs,
      present: spec.present,
      interactive: spec.interactive,
      mutation: spec.mutation === true,
      lockKeys: spec.lockKeys,
      isGenerator: spec.isGenerator === true,
      middleware,
      validate: spec.validate,
      perCall: deps.needsCallScope(classes),
      terminal: spec.terminal
    },
    deps
  );
  return Object.freeze({
    kind: spec.kind,
    info,
    bindingName: spec.bindingName ?? spec.name,
    singleUseState: spec.interactive && spec.singleUseState,
    answersUpFront: spec.answersUpFront === true,
    exactlyOnce: spec.interactive && spec.exactlyOnce === true,
    mayBecomeTask: escalates,
    steps,
    run
  });
}
