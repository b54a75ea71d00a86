import type { ToolAnnotations } from '@modelcontextprotocol/server';
import { ConfigurationError } from '../errors';
import { metadataStorage } from './metadata-storage';
import type { ToolDescriptor } from './tool-descriptor';
import { describeParams } from './param-describer';
import { describeSurfaceMember } from './surface-builder';
import type { PromptDescriptor, ResourceDescriptor, ResourceTemplateDescriptor } from './surface-descriptors';
import type { ClassRecord, Constructor, MemberKind, MethodRecord, ToolKind, ToolOptions } from './types';

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
export function buildRegistry(classes: readonly Constructor[]): Registry {
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
    const record = metadataStorage.find(target);
    if (!record?.provider) {
      problems.push(`${target.name} is not a tool provider: decorate it with @ToolProvider().`);
      if (!record) continue;
    }
    problems.push(...record.misuses);
    for (const [key, method] of record.methods) {
      const kind = method.kinds[0]?.kind;
      if (method.kinds.length === 1 && kind !== 'action' && kind !== 'mutation') {
        const member = describeSurfaceMember(target, key, method, problems);
        if (!member) continue;
        const id = `${member.kind === 'prompt' ? 'prompt' : 'resource'} "${member.kind === 'resource-template' ? member.uriTemplate : member.kind === 'resource' ? member.uri : member.name}"`;
        const where = `${member.className}.${member.methodName}`;
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
      const descriptor = describeMethod(target, record, key, method, problems);
      if (!descriptor) continue;
      const where = `${descriptor.className}.${descriptor.methodName}`;
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
  if (problems.length > 0) {
    throw new ConfigurationError(`Cannot start: ${problems.length} problem(s) with the tool classes:\n- ${problems.join('\n- ')}`);
  }
  return registry;
}

function describeMethod(
  target: Constructor,
  record: ClassRecord,
  key: string | symbol,
  method: MethodRecord,
  problems: string[]
): ToolDescriptor | undefined {
  const where = `${target.name}.${String(key)}`;
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
  if (options.timeoutMs !== undefined && (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0)) {
    problems.push(`${where}: timeoutMs must be a positive number of milliseconds (got ${String(options.timeoutMs)}).`);
  }
  const output = options.output;
  if (
    output !== undefined &&
    !(typeof output === 'function' || (Array.isArray(output) && output.length === 1 && typeof output[0] === 'function'))
  ) {
    problems.push(`${where}: output must be a class or [Class] (got ${String(output)}).`);
  }
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
    singleUseState: interactiveOptions.singleUseState === true,
    answersUpFront: interactiveOptions.answersUpFront === true,
    description: options.description as string,
    title: options.title,
    annotations,
    target,
    className: target.name,
    methodName: String(key),
    params: Object.freeze(params.kinds),
    inputType: params.inputType,
    output,
    presenter: options.presenter ?? record.provider?.presenter,
    middleware: Object.freeze([...(record.provider?.middleware ?? []), ...(options.middleware ?? [])]),
    timeoutMs: options.timeoutMs,
    requires: options.requires,
    isGenerator: fnKind === 'AsyncGeneratorFunction' || fnKind === 'GeneratorFunction'
  });
}
