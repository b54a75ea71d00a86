import { serverSdk } from '../wire/server-sdk';
import type { PromptDescriptor, ResourceDescriptor, ResourceTemplateDescriptor } from './surface-descriptors';
import { describeParams } from './param-describer';
import { displayOf } from './member-display';
import { memberScopes } from '../auth/scopes';
import { durationProblem, outputProblem } from '../config/option-checks';
import type { Middleware } from '../types/middleware';
import type { CompleterRef, MethodRecord, PromptOptions, ResourceTemplateOptions, ToolProviderOptions } from './types';
import type { Constructor } from '../types/core';

/** Builds the descriptor of a `@Resource`, `@ResourceTemplate` or `@Prompt` method, collecting misuse. */
export function describeSurfaceMember(
  target: Constructor,
  key: string | symbol,
  method: MethodRecord,
  problems: string[],
  where = `${target.name}.${String(key)}`,
  provider: ToolProviderOptions = {}
): ResourceDescriptor | ResourceTemplateDescriptor | PromptDescriptor | undefined {
  const [{ kind, name: id, options: raw }] = method.kinds;
  const before = problems.length;
  const fn = (target.prototype as Record<string | symbol, unknown>)[key] as (...args: unknown[]) => unknown;
  const params = describeParams(target, key, fn, method, where, problems);
  const base = {
    target,
    className: target.name,
    methodName: String(key),
    params: Object.freeze(params?.kinds ?? []),
    inputType: params?.inputType,
    interactive: method.interactive,
    singleUseState: method.interactiveOptions?.singleUseState === true,
    ...commonOptions(where, raw as { middleware?: unknown; timeoutMs?: unknown } | undefined, provider.middleware ?? [], problems),
    scopes: memberScopes(where, (raw as { scopes?: unknown } | undefined)?.scopes, target.name, provider.scopes, problems),
    ...iconsAndMeta(displayOf(where, raw as { title?: unknown; icons?: unknown; _meta?: unknown } | undefined, problems))
  };
  if (method.interactiveOptions?.exactlyOnce)
    problems.push(`${where}: exactlyOnce applies to tools only (a round whose effect must happen once is a tool's).`);
  if (method.interactiveOptions?.answersUpFront)
    problems.push(`${where}: answersUpFront applies to read-only tools only (answers must answer a question the server asked).`);
  if (kind === 'prompt') {
    const options = (raw ?? {}) as Partial<PromptOptions>;
    if (typeof id !== 'string' || id.trim() === '') problems.push(`${where}: @Prompt needs a name.`);
    if (typeof options.description !== 'string' || options.description.trim() === '') {
      problems.push(`${where} has no description: pass { description: '…' } to @Prompt.`);
    }
    checkCompleters(where, options.complete, target, problems);
    if (problems.length > before || !params) return undefined;
    return Object.freeze({
      ...base,
      kind: 'prompt' as const,
      name: id as string,
      title: options.title,
      description: options.description as string,
      complete: options.complete ?? {}
    });
  }
  const options = (raw ?? {}) as Partial<ResourceTemplateOptions>;
  if (typeof options.name !== 'string' || options.name.trim() === '')
    problems.push(`${where}: pass { name: '…' } to ${kind === 'resource' ? '@Resource' : '@ResourceTemplate'}.`);
  if (method.interactive && kind === 'resource')
    problems.push(`${where}: @Interactive() applies to tools, prompts and resource templates.`);
  if (typeof id !== 'string' || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(id)) {
    problems.push(
      `${where}: ${JSON.stringify(id)} is not a URI${kind === 'resource' ? '' : ' template'} (it needs a scheme, like billing://…).`
    );
  }
  const outputIssue = outputProblem(options.output, `${where}: output`);
  if (outputIssue) problems.push(outputIssue);
  const common = {
    name: options.name as string,
    title: options.title,
    description: options.description,
    mimeType: options.mimeType,
    output: options.output
  };
  if (kind === 'resource') {
    if (typeof id === 'string' && serverSdk().UriTemplate.isTemplate(id))
      problems.push(`${where}: ${id} has template variables: use @ResourceTemplate.`);
    if (problems.length > before || !params) return undefined;
    return Object.freeze({ ...base, kind: 'resource' as const, uri: id as string, ...common });
  }
  let variables: string[] = [];
  try {
    variables = new (serverSdk().UriTemplate)(id as string).variableNames;
  } catch (error) {
    problems.push(`${where}: ${JSON.stringify(id)} is not a valid URI template (${(error as Error).message}).`);
  }
  checkCompleters(where, options.complete, target, problems);
  for (const variable of Object.keys(options.complete ?? {})) {
    if (variables.length > 0 && !variables.includes(variable))
      problems.push(`${where}: completer for "${variable}", which the template does not have.`);
  }
  if (options.list !== undefined && typeof (target.prototype as Record<string, unknown>)[options.list] !== 'function') {
    problems.push(`${where}: list names "${options.list}", which is not a method of ${target.name}.`);
  }
  if (problems.length > before || !params) return undefined;
  return Object.freeze({
    ...base,
    kind: 'resource-template' as const,
    uriTemplate: id as string,
    ...common,
    complete: options.complete ?? {},
    list: options.list
  });
}

/** The display fields a descriptor keeps besides `title` (which each kind keeps in its own place). */
function iconsAndMeta({ icons, meta }: ReturnType<typeof displayOf>): {
  icons?: ReturnType<typeof displayOf>['icons'];
  meta?: ReturnType<typeof displayOf>['meta'];
} {
  return { ...(icons ? { icons } : {}), ...(meta ? { meta } : {}) };
}

function checkCompleters(
  where: string,
  complete: Readonly<Record<string, CompleterRef>> | undefined,
  target: Constructor,
  problems: string[]
): void {
  for (const [name, ref] of Object.entries(complete ?? {})) {
    if (typeof ref === 'string' && typeof (target.prototype as Record<string, unknown>)[ref] !== 'function') {
      problems.push(`${where}: the completer for "${name}" names "${ref}", which is not a method of ${target.name}.`);
    } else if (typeof ref !== 'string' && typeof ref !== 'function') {
      problems.push(`${where}: the completer for "${name}" must be a function or a method name.`);
    }
  }
}

/** The options every kind of member takes, tools included: its middleware (the class's first, then its own) and a timeout. */
export function commonOptions(
  where: string,
  options: { middleware?: unknown; timeoutMs?: unknown } | undefined,
  classMiddleware: readonly Middleware[],
  problems: string[]
): { middleware: readonly Middleware[]; timeoutMs?: number } {
  const timeoutMs = options?.timeoutMs;
  const timeoutIssue = durationProblem(timeoutMs, `${where}: timeoutMs`);
  if (timeoutIssue) problems.push(timeoutIssue);
  const middleware = options?.middleware;
  if (middleware !== undefined && !(Array.isArray(middleware) && middleware.every((m) => typeof m === 'function'))) {
    problems.push(`${where}: middleware must be a list of functions or middleware classes.`);
  }
  return {
    middleware: Object.freeze([...classMiddleware, ...((Array.isArray(middleware) ? middleware : []) as Middleware[])]),
    ...(typeof timeoutMs === 'number' ? { timeoutMs } : {})
  };
}
