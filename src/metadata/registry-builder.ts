import type { ToolAnnotations } from '@modelcontextprotocol/server';
import { memberScopes } from '../auth/scopes';
import type { ToolTaskSupport } from '../types/tasks';
import { durationProblem, outputProblem } from '../config/option-checks';
import { ConfigurationError } from '../errors';
import { metadataStorage } from './metadata-storage';
import { serializeOption } from './serialize-option';
import type { ToolDescriptor } from './tool-descriptor';
import { describeParams } from './param-describer';
import { displayOf } from './member-display';
import { TOOL_VIEW_META_KEYS, toolViewOf } from './tool-view';
import { checkViewReferences } from './view-references';
import { commonOptions, describeSurfaceMember } from './surface-builder';
import type { PromptDescriptor, ResourceDescriptor, ResourceTemplateDescriptor } from './surface-descriptors';
import type { ClassRecord, MethodRecord, MutationOptions, ToolOptions, ToolProviderOptions } from './types';
import type { Constructor, MemberKind, ToolKind } from '../types/core';

/** Tool names the protocol allows: 1–128 of A–Z a–z 0–9 _ - . */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

const DECORATOR_NAMES: Record<MemberKind, string> = {
  action: '@Action',
  mutation: '@Mutation',
  resource: '@Resource',
  'resource-template': '@ResourceTemplate',
  prompt: '@Prompt'
};

/** Everything an app serves, validated. */
export interface Registry {
  readonly tools: ToolDescriptor[];
  readonly resources: ResourceDescriptor[];
  readonly templates: ResourceTemplateDescriptor[];
  readonly prompts: PromptDescriptor[];
}

/**
 * Builds frozen tool descriptors from what the decorators recorded, validating
 * everything. Every misuse is collected and reported together in one
 * ConfigurationError whose lines name the class and method and say the fix.
 */
export function buildRegistry(classes: readonly Constructor[], views: ReadonlySet<string> = new Set()): Registry {
  if (typeof Reflect !== 'object' || typeof (Reflect as { getMetadata?: unknown }).getMetadata !== 'function') {
    throw new ConfigurationError(
      "reflect-metadata is not loaded: add `import 'reflect-metadata'` before anything else in your entry file."
    );
  }
  const problems: string[] = [];
  const registry: Registry = { tools: [], resources: [], templates: [], prompts: [] };
  const seen = new Map<string, string>();
  for (const target of classes) {
    if (typeof target !== 'function') {
      problems.push(`tools contains ${String(target)}, which is not a class: pass the decorated classes themselves.`);
      continue;
    }
    const own = metadataStorage.find(target);
    const lineage = metadataStorage.lineage(target);
    if (!own?.provider) {
      const base = lineage.find((entry) => entry.ctor !== target && entry.record.provider);
      const hint = base ? ` (its base class ${nameOf(base.ctor)} has one, but each class given to the app needs its own)` : '';
      problems.push(`${target.name} is not a tool provider: decorate it with @ToolProvider()${hint}.`);
      if (!own) continue;
    }
    const provider = classOptionsOf(target);
    checkInheritedConstructor(target, problems);
    for (const { key, method, where } of inheritedMembers(target, lineage, problems)) {
      const kind = method.kinds[0]?.kind;
      if (method.kinds.length === 1 && kind !== 'action' && kind !== 'mutation') {
        const member = describeSurfaceMember(target, key, method, problems, where, provider);
        if (!member) continue;
        const id = `${member.kind === 'prompt' ? 'prompt' : 'resource'} "${member.kind === 'resource-template' ? member.uriTemplate : member.kind === 'resource' ? member.uri : member.name}"`;
        const previous = seen.get(id);
        if (previous) {
          problems.push(`Duplicate ${id} on ${previous} and ${where}: each must be unique within an app.`);
          continue;
        }
        seen.set(id, where);
        if (member.kind === 'resource') registry.resources.push(member);
        else if (member.kind === 'resource-template') registry.templates.push(member);
        else registry.prompts.push(member);
        continue;
      }
      const descriptor = describeMethod(target, provider, key, method, where, problems);
      if (!descriptor) continue;
      const id = `tool "${descriptor.name}"`;
      const previous = seen.get(id);
      if (previous) {
        problems.push(`Duplicate tool name "${descriptor.name}" on ${previous} and ${where}: tool names must be unique within an app.`);
        continue;
      }
      seen.set(id, where);
      registry.tools.push(descriptor);
    }
  }
  checkViewReferences(registry.tools, registry.resources, views, seen, problems);
  // A base class's misuse is reported once, however many of its subclasses the app was given.
  const unique = [...new Set(problems)];
  if (unique.length > 0) {
    throw new ConfigurationError(`Cannot start: ${unique.length} problem(s) with the tool classes:\n- ${unique.join('\n- ')}`);
  }
  return registry;
}

/** One method name of a class as the app serves it, with the decorators that apply to it. */
interface ServedMember {
  readonly key: string | symbol;
  readonly method: MethodRecord;
  /** How problems name it: `Sub.method`, or `Sub.method (inherited from Base)`. */
  readonly where: string;
}

/**
 * What a class serves, its base classes included. For each method name, the decorators of the
 * nearest class in the prototype chain that decorates it apply, as a whole: a subclass that
 * decorates an inherited method replaces all of the base's decorators on it, and an override
 * without decorators keeps them (the override is what runs: handlers are called on the instance).
 */
function inheritedMembers(
  target: Constructor,
  lineage: ReadonlyArray<{ readonly ctor: object; readonly record: ClassRecord }>,
  problems: string[]
): ServedMember[] {
  const declared = new Map<string | symbol, Array<{ owner: object; method: MethodRecord }>>();
  for (const { ctor, record } of lineage) {
    problems.push(...record.misuses);
    for (const [key, method] of record.methods) declared.set(key, [...(declared.get(key) ?? []), { owner: ctor, method }]);
  }
  const members: ServedMember[] = [];
  for (const [key, declarations] of declared) {
    const { owner, method } = declarations[declarations.length - 1];
    const at = `${nameOf(owner)}.${String(key)}`;
    const where = owner === target ? at : `${target.name}.${String(key)} (inherited from ${nameOf(owner)})`;
    const shadowed = method.kinds.length === 0 ? [...declarations].reverse().find((d) => d.method.kinds.length > 0) : undefined;
    if (shadowed) {
      problems.push(
        `${at} overrides ${DECORATOR_NAMES[shadowed.method.kinds[0].kind]} ${nameOf(shadowed.owner)}.${String(key)} with only @Interactive() or parameter decorators: ` +
          "decorators on an override replace all of the base method's, so repeat its kind decorator on the override, or remove the override's decorators to inherit them."
      );
      continue;
    }
    members.push({ key, method, where });
  }
  return members;
}

/**
 * The `@ToolProvider()` options that apply to the members of a class, its base classes'
 * included: middleware accumulates base first (base, then subclass), the nearest presenter wins.
 */
export function classOptionsOf(target: Constructor): ToolProviderOptions {
  const lineage = metadataStorage.lineage(target);
  return {
    middleware: lineage.flatMap(({ record }) => record.provider?.middleware ?? []),
    presenter: lineage.reduce<ToolProviderOptions['presenter']>((nearest, { record }) => record.provider?.presenter ?? nearest, undefined),
    scopes: lineage.reduce<ToolProviderOptions['scopes']>((nearest, { record }) => record.provider?.scopes ?? nearest, undefined)
  };
}

/**
 * A class without a constructor of its own is built with its base class's; unless that one's
 * parameter types were recorded (a decorator on the base), tsyringe would call it with nothing.
 */
function checkInheritedConstructor(target: Constructor, problems: string[]): void {
  if (target.length > 0 || Reflect.getMetadata('design:paramtypes', target) !== undefined) return;
  for (let at: unknown = Object.getPrototypeOf(target); typeof at === 'function'; at = Object.getPrototypeOf(at)) {
    if (at.length === 0) continue;
    problems.push(
      `${target.name} is built with the constructor of ${nameOf(at)}, which takes ${at.length} parameter(s) whose types were not recorded: ` +
        `decorate ${nameOf(at)} with @injectable() from 'tsyringe' (or @ToolProvider()) so they can be injected.`
    );
    return;
  }
}

function nameOf(ctor: object): string {
  return (ctor as { name?: string }).name || '(anonymous)';
}

function describeMethod(
  target: Constructor,
  provider: ToolProviderOptions,
  key: string | symbol,
  method: MethodRecord,
  where: string,
  problems: string[]
): ToolDescriptor | undefined {
  if (method.kinds.length === 0) {
    if (method.interactive)
      problems.push(`${where} has @Interactive() but no @Action, @Mutation, @Prompt or @ResourceTemplate: add one of them.`);
    else if (method.params.size > 0)
      problems.push(`${where} has parameter decorators but is not a tool, resource or prompt: add @Action or @Mutation.`);
    return undefined;
  }
  if (method.kinds.length > 1) {
    const names = method.kinds.map((k) => DECORATOR_NAMES[k.kind]).join(' and ');
    problems.push(`${where} has ${names}: a method serves one tool, resource or prompt; keep exactly one.`);
    return undefined;
  }
  const [{ kind, name, options: rawOptions }] = method.kinds;
  const before = problems.length;
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    problems.push(`${where}: tool name ${JSON.stringify(name)} is not allowed: use 1–128 characters of A–Z, a–z, 0–9, "_", "-" and ".".`);
  }
  const options = (rawOptions ?? {}) as Partial<ToolOptions>;
  if (typeof options.description !== 'string' || options.description.trim() === '') {
    problems.push(`${where} has no description: pass { description: '…' } so the model knows what the tool does.`);
  }
  const { middleware, timeoutMs } = commonOptions(where, options, provider.middleware ?? [], problems);
  const outputIssue = outputProblem(options.output, `${where}: output`);
  if (outputIssue) problems.push(outputIssue);
  const scopes = memberScopes(where, options.scopes, target.name, provider.scopes, problems);
  const task = taskOption(where, options.task, problems);
  const display = displayOf(where, options, problems, TOOL_VIEW_META_KEYS);
  const viewFields = toolViewOf(where, options.view, options.visibility, problems);
  const serializeOn = serializeOption(where, kind, (options as MutationOptions).serializeOn, problems);
  const fn = (target.prototype as Record<string | symbol, unknown>)[key] as (...args: unknown[]) => unknown;
  const params = describeParams(target, key, fn, method, where, problems);
  if (problems.length > before || !params) return undefined;

  const implied: ToolAnnotations =
    kind === 'action'
      ? { readOnlyHint: true, destructiveHint: false, openWorldHint: false }
      : { readOnlyHint: false, destructiveHint: true, openWorldHint: false };
  const annotations = Object.freeze({ ...implied, ...(options.title ? { title: options.title } : {}), ...options.annotations });
  const interactiveOptions = method.interactiveOptions ?? {};
  if (
    interactiveOptions.answersUpFront &&
    (kind !== 'action' || annotations.readOnlyHint !== true || annotations.destructiveHint === true)
  ) {
    problems.push(
      `${where}: answersUpFront is allowed only on read-only tools: answers sent before anything was asked must never authorize a change. Remove it (the client is asked instead).`
    );
    return undefined;
  }
  const fnKind = fn.constructor.name;
  return Object.freeze({
    name: name as string,
    kind: kind as ToolKind,
    interactive: method.interactive,
    // Exactly-once rounds are keyed on their single-use state: the one implies the other.
    singleUseState: interactiveOptions.singleUseState === true || interactiveOptions.exactlyOnce === true,
    exactlyOnce: interactiveOptions.exactlyOnce === true,
    answersUpFront: interactiveOptions.answersUpFront === true,
    description: options.description as string,
    title: options.title,
    ...(display.icons ? { icons: display.icons } : {}),
    ...(display.meta ? { meta: display.meta } : {}),
    ...viewFields,
    annotations,
    target,
    className: target.name,
    methodName: String(key),
    params: Object.freeze(params.kinds),
    inputType: params.inputType,
    output: options.output,
    presenter: options.presenter ?? provider.presenter,
    middleware,
    timeoutMs,
    requires: options.requires,
    scopes,
    ...(task ? { task } : {}),
    ...(serializeOn ? { serializeOn } : {}),
    isGenerator: fnKind === 'AsyncGeneratorFunction' || fnKind === 'GeneratorFunction'
  });
}

/** The `task` option of a tool, checked: `'optional'`, `'required'` or `{ support, ttlMs?, pollIntervalMs? }`. */
function taskOption(where: string, value: unknown, problems: string[]): ToolTaskSupport | undefined {
  if (value === undefined) return undefined;
  const raw = typeof value === 'string' ? { support: value } : value;
  const { support, ttlMs, pollIntervalMs, create } = (raw ?? {}) as Partial<Record<keyof ToolTaskSupport, unknown>>;
  if (support !== 'optional' && support !== 'required') {
    problems.push(
      `${where}: task must be 'optional', 'required' or { support: 'optional' | 'required', ttlMs?, pollIntervalMs? } (got ${JSON.stringify(value)}).`
    );
    return undefined;
  }
  if (create !== undefined && create !== 'when-waiting' && create !== 'at-once') {
    problems.push(`${where}: task.create must be 'when-waiting' or 'at-once' (got ${JSON.stringify(create)}).`);
    return undefined;
  }
  const timing =
    durationProblem(ttlMs, `${where}: task.ttlMs`, { whole: true }) ??
    durationProblem(pollIntervalMs, `${where}: task.pollIntervalMs`, { whole: true });
  if (timing) {
    problems.push(timing);
    return undefined;
  }
  return Object.freeze({
    support,
    ...(typeof ttlMs === 'number' ? { ttlMs } : {}),
    ...(typeof pollIntervalMs === 'number' ? { pollIntervalMs } : {}),
    ...(create ? { create: create as 'when-waiting' | 'at-once' } : {})
  });
}
