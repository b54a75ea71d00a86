import { ProtocolError, ProtocolErrorCode, type CompleteResult } from '@modelcontextprotocol/server';
import type { CompleterRef, Constructor } from '../metadata/types';
import { ownRecord, ownValue } from '../wire/own-properties';
import type { InvokerDependencies, SurfaceCall } from './member-invoker';
import { invokeMember } from './member-invoker';
import type { PromptCatalog } from './prompt-catalog';
import type { ResourceCatalog } from './resource-catalog';

const MAX_VALUES = 100;

/** A `completion/complete` request's parts. */
export interface CompletionQuery {
  readonly ref: { readonly type: string; readonly name?: string; readonly uri?: string };
  readonly argument: { readonly name: string; readonly value: string };
  readonly context?: { readonly arguments?: Readonly<Record<string, string>> };
}

/**
 * Completes a prompt argument or a resource-template variable with the completer attached to
 * it (a function, or a method of the class resolved per call). At most 100 values are sent;
 * `hasMore` says when there were more. An argument with no completer gets no values.
 */
export async function complete(
  query: CompletionQuery,
  prompts: PromptCatalog,
  resources: ResourceCatalog,
  deps: InvokerDependencies,
  call: SurfaceCall
): Promise<CompleteResult> {
  const owner =
    query.ref.type === 'ref/prompt'
      ? prompts.get(query.ref.name ?? '')
      : query.ref.type === 'ref/resource'
        ? resources.template(query.ref.uri ?? '')
        : undefined;
  if (!owner) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Nothing to complete for ${JSON.stringify(query.ref)}`);
  const ref = ownValue(owner.complete, query.argument.name) as CompleterRef | undefined;
  if (!ref) return { completion: { values: [], total: 0, hasMore: false } };
  const value = String(query.argument.value ?? '');
  const context = { arguments: ownRecord<string>(query.context?.arguments) };
  let values: readonly string[];
  if (typeof ref === 'function') {
    values = await ref(value, context);
  } else {
    const member = { target: owner.target as Constructor, methodName: ref, params: [], interactive: false };
    const info = { name: owner.name, kind: owner.kind, interactive: false, className: owner.className, methodName: ref };
    const outcome = await invokeMember(deps, { ...member, params: ['input', 'context'] as const }, info, context.arguments, value, call);
    values = ('value' in outcome ? (outcome.value as readonly string[]) : []) ?? [];
  }
  const all = values.filter((v) => typeof v === 'string');
  return { completion: { values: all.slice(0, MAX_VALUES), total: all.length, hasMore: all.length > MAX_VALUES } };
}
