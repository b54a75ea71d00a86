import type { ScopesOfRequest, WireRequest } from '../auth/http-auth';
import { isPlainJsonObject, ownValue } from '../wire/own-properties';

/**
 * What a request names of the app, read from its params (untrusted: strings only): the member it
 * runs or subscribes to or, for a completion, the prompt or resource whose argument it completes.
 */
export type MemberTarget =
  | {
      readonly kind: 'tool' | 'prompt';
      readonly name: string;
      /** A tool call's raw arguments (untrusted): a search's call tool needs the scopes of the tool they name. */
      readonly arguments?: unknown;
    }
  /** A URI to read (or follow): a fixed resource, else the first template that matches. */
  | { readonly kind: 'resource'; readonly uri: string }
  /** `ref/prompt` (`name`: the prompt's name) or `ref/resource` (`name`: its URI or URI template, as declared). */
  | { readonly kind: 'completion'; readonly of: 'prompt' | 'resource'; readonly name: string };

/**
 * How a method's params are checked before its handler runs: the spec's params schema named
 * (malformed params answer -32602 naming the problem), `'as-sent'` (the handler or the SDK's
 * `Server` checks them; see `server-factory.ts`), or `'sdk'` (the SDK's plain form).
 */
export type ParamsCheck = 'ReadResourceRequestParams' | 'GetPromptRequestParams' | 'CompleteRequestParams' | 'as-sent' | 'sdk';

/** One row of {@link MEMBER_METHODS}. */
export interface MemberMethod {
  readonly params: ParamsCheck;
  /** The member the request names (absent or malformed: undefined; the handler then answers). */
  readonly target: (params: unknown) => MemberTarget | undefined;
}

/**
 * The protocol methods that address one member of the app, in one table: how each one's params
 * are checked and which member they name. The server factory registers a handler for exactly
 * these methods from it (its handlers are typed by this table's keys), the request spans are
 * named from `target`, and the HTTP auth gate reads a request's scopes through the same
 * `target` ({@link scopesOfRequest}): a method cannot be routed without its scopes being known.
 * The lists, `resources/unsubscribe` and `tasks/*` name no member and need no member's scopes.
 */
export const MEMBER_METHODS = {
  'tools/call': { params: 'as-sent', target: (params) => named('tool', params) },
  'resources/read': { params: 'ReadResourceRequestParams', target: resourceAt },
  'resources/subscribe': { params: 'sdk', target: resourceAt },
  'prompts/get': { params: 'GetPromptRequestParams', target: (params) => named('prompt', params) },
  'completion/complete': { params: 'CompleteRequestParams', target: completionOf }
} as const satisfies Readonly<Record<string, MemberMethod>>;

/** A method that addresses one member. */
export type MemberMethodName = keyof typeof MEMBER_METHODS;

/** The methods of {@link MEMBER_METHODS}, in its order. */
export const MEMBER_METHOD_NAMES = Object.freeze(Object.keys(MEMBER_METHODS)) as readonly MemberMethodName[];

/** The member a wire request names, when its method addresses one (the method string is untrusted). */
export function memberTargetOf(request: WireRequest): MemberTarget | undefined {
  if (!Object.prototype.hasOwnProperty.call(MEMBER_METHODS, request.method)) return undefined;
  return (MEMBER_METHODS[request.method as MemberMethodName] as MemberMethod).target(request.params);
}

/**
 * The scopes a wire request needs, for the HTTP auth gate: those of the member it names, as
 * `scopesOf` finds it (a request that names none, or names something unknown: undefined; the
 * handler answers it).
 */
export function scopesOfRequest(scopesOf: (target: MemberTarget) => readonly string[] | undefined): ScopesOfRequest {
  return (request) => {
    const target = memberTargetOf(request);
    return target ? scopesOf(target) : undefined;
  };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function paramsOf(params: unknown): Record<string, unknown> | undefined {
  return isPlainJsonObject(params) ? params : undefined;
}

/** `tools/call`, `prompts/get`: the member's name. */
function named(kind: 'tool' | 'prompt', params: unknown): MemberTarget | undefined {
  const name = text(ownValue(paramsOf(params), 'name'));
  if (name === undefined) return undefined;
  return kind === 'tool' ? { kind, name, arguments: ownValue(paramsOf(params), 'arguments') } : { kind, name };
}

/** `resources/read`, `resources/subscribe`: the URI. */
function resourceAt(params: unknown): MemberTarget | undefined {
  const uri = text(ownValue(paramsOf(params), 'uri'));
  return uri === undefined ? undefined : { kind: 'resource', uri };
}

/** `completion/complete`: the prompt or resource its `ref` names. */
function completionOf(params: unknown): MemberTarget | undefined {
  const ref = ownValue(paramsOf(params), 'ref');
  if (!isPlainJsonObject(ref)) return undefined;
  const type = ownValue(ref, 'type');
  if (type === 'ref/prompt') return { kind: 'completion', of: 'prompt', name: text(ownValue(ref, 'name')) ?? '' };
  if (type === 'ref/resource') return { kind: 'completion', of: 'resource', name: text(ownValue(ref, 'uri')) ?? '' };
  return undefined;
}
