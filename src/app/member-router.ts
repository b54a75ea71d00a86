import type {
  AuthInfo,
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  InputRequiredResult,
  ReadResourceResult,
  Resource
} from '@modelcontextprotocol/server';
import { missingScopes } from '../auth/scopes';
import { NothingToCompleteError, UnknownPromptError, UnknownToolError } from '../errors';
import type { ErrorBoundary } from '../pipeline/error-boundary';
import type { PromptCatalog } from '../surface/prompt-catalog';
import type { ResourceCatalog } from '../surface/resource-catalog';
import type { ToolCatalog } from '../surface/tool-catalog';
import type { MemberTarget } from '../transports/member-methods';
import type { CompletionQuery, ServedApp } from '../transports/served-app';
import type { ExtensionSet } from './extension-set';
import type { CallKind } from '../types/core';
import { isPlainJsonObject, ownValue } from '../wire/own-properties';
import type { CallRequest, ServedRequest } from '../types/request';
import type { CallEngine } from './call-engine';
import type { ListenRouter } from '../transports/http/task-listen-request';
import type { CompiledMember } from '../pipeline/compiled-member';
import type { ToolSearch } from '../tool-search/tool-search';
import { refinedRequest } from './refined-request';

/** The catalogs the router reads, replaced as a whole when the tool classes change at run time. */
export interface Catalogs {
  readonly tools: ToolCatalog;
  readonly resources: ResourceCatalog;
  readonly prompts: PromptCatalog;
  /** With `toolSearch`: the search front of the tools (what `tools/list` shows, and the search and call tools' answers). */
  readonly search?: ToolSearch;
}

/**
 * The app as the transports see it (`ServedApp`): finds the member a request names and has the
 * engine run its chain (whose error boundary maps every failure of a call). What fails before a
 * call exists (an unknown name) is thrown as a `FusionError` and leaves through the same
 * boundary. Reads the catalogs on each request, so a run-time change of tool classes applies to
 * the next one.
 */
export class MemberRouter implements ServedApp {
  constructor(
    private readonly engine: CallEngine,
    private readonly boundary: ErrorBoundary,
    private readonly catalogs: () => Catalogs,
    /** Lists show only what the caller's scopes allow (`auth.listing: 'allowed'`). */
    private readonly filterLists = false,
    /** The app's extensions (the framework's own, tasks and views, among them). */
    private readonly extensionSet: ExtensionSet,
    /** The chain of each extension's resources, by extension id (see `extension-resources.ts`). */
    private readonly extensionResources: ReadonlyMap<string, CompiledMember>
  ) {
    this.extensions = extensionSet.capabilities;
    this.extensionMethods = extensionSet.methodNames;
    this.listens = extensionSet.hasListens ? extensionSet : undefined;
  }

  readonly extensions: Readonly<Record<string, object>> | undefined;
  readonly extensionMethods: readonly string[];
  /** What answers the listens the app's extensions serve (task status among them), when any does. */
  readonly listens: ListenRouter | undefined;

  callExtension(method: string, params: unknown, request: ServedRequest): Promise<Record<string, unknown>> {
    return this.extensionSet.call(method, params, request);
  }

  listTools(auth?: AuthInfo) {
    const { tools, search } = this.catalogs();
    const shown = this.shownTo(auth);
    if (search) return search.listing(shown);
    return shown ? tools.listingFor(shown) : tools.listing;
  }

  toolInputSchema(name: string) {
    const { tools, search } = this.catalogs();
    return (tools.get(name)?.listing ?? search?.frontTool(name))?.inputSchema as Record<string, unknown> | undefined;
  }

  toolOutputSchema(name: string) {
    return this.catalogs().tools.get(name)?.outputSchema;
  }

  /**
   * A tool call: its result, a request for input, a `CreateTaskResult`, or an `isError` result; protocol errors are thrown.
   * With `toolSearch`, the search tool is answered here, and the call tool runs the tool it names through that
   * tool's own chain, as a call of it (its name and arguments in place of the call tool's): so the tool's scopes,
   * locks, questions (whose state is bound to the tool and its arguments), progress and task are its own. The
   * search tool answers from memory and takes no queue slot.
   */
  callTool(
    request: CallRequest,
    then?: (answer: unknown) => unknown
  ): Promise<CallToolResult | InputRequiredResult | Record<string, unknown>> {
    const { tools, search } = this.catalogs();
    const tool = tools.get(request.subject);
    if (tool) return this.engine.run(tool, request, then) as Promise<CallToolResult | InputRequiredResult>;
    if (search?.serves(request.subject)) {
      const answer = this.searched(search, request);
      return then ? (answer.then(then) as Promise<CallToolResult>) : answer;
    }
    return this.refuse('tool', request.subject, new UnknownToolError(request.subject));
  }

  /** A call of the search tool or the call tool; their own bad input is an `isError` result the model reads. */
  private searched(search: ToolSearch, request: CallRequest): Promise<CallToolResult | InputRequiredResult | Record<string, unknown>> {
    let routed;
    try {
      routed = search.route(request.subject, request.arguments, this.shownTo(request.authInfo));
    } catch (error) {
      try {
        return Promise.resolve(this.boundary.fail('tool', request.subject, 'request', error, request) as CallToolResult);
      } catch (protocolError) {
        return Promise.reject(protocolError);
      }
    }
    if ('answer' in routed) return Promise.resolve(routed.answer);
    const { tool, arguments: args } = routed.call;
    return this.engine.run(tool, refinedRequest(request, { subject: tool.info.name, arguments: args })) as Promise<
      CallToolResult | InputRequiredResult
    >;
  }

  async listResources(request: ServedRequest): Promise<Resource[]> {
    const { resources } = this.catalogs();
    const auth = request.authInfo;
    const listed = [...resources.fixedListing(this.shownTo(auth)), ...this.extensionSet.listedResources()];
    // A template's list method is run only for a caller its scopes allow, whatever the listing option.
    for (const member of resources.listMembers(auth ? grantedBy(auth) : undefined)) {
      // Each list method is a call of its own, made here where its member is known.
      listed.push(...((await this.engine.run(member, { ...request, subject: member.info.name })) as Resource[]));
    }
    return listed;
  }

  listResourceTemplates(auth?: AuthInfo) {
    return this.catalogs().resources.listTemplates(this.shownTo(auth));
  }

  readResource(request: CallRequest): Promise<ReadResourceResult | InputRequiredResult> {
    let target;
    try {
      target = this.catalogs().resources.resolve(request.subject);
    } catch (error) {
      // Not one of the app's own: an extension's (a skill file), read through the extension's chain, or unknown.
      const member = this.extensionMember(request.subject);
      if (member) return this.engine.run(member, request) as Promise<ReadResourceResult>;
      return this.refuse('resource', request.subject, error);
    }
    // The variables of a template are known only once the URI is resolved, here.
    return this.engine.run(target.member, { ...request, arguments: target.arguments, input: target.arguments }) as Promise<
      ReadResourceResult | InputRequiredResult
    >;
  }

  listPrompts(auth?: AuthInfo) {
    const shown = this.shownTo(auth);
    return shown ? this.catalogs().prompts.listingFor(shown) : this.catalogs().prompts.listing;
  }

  getPrompt(request: CallRequest): Promise<GetPromptResult | InputRequiredResult> {
    const prompt = this.catalogs().prompts.get(request.subject);
    if (!prompt) return this.refuse('prompt', request.subject, new UnknownPromptError(request.subject));
    return this.engine.run(prompt, request) as Promise<GetPromptResult | InputRequiredResult>;
  }

  complete(query: CompletionQuery, request: CallRequest): Promise<CompleteResult> {
    const { prompts, resources } = this.catalogs();
    const found =
      query.ref.type === 'ref/prompt'
        ? prompts.completer(query.ref.name ?? '', query.argument.name)
        : query.ref.type === 'ref/resource'
          ? resources.completer(query.ref.uri ?? '', query.argument.name)
          : { known: false };
    if (!found.known) return this.refuse('completion', request.subject, new NothingToCompleteError(query.ref));
    if (!found.member) return Promise.resolve({ completion: { values: [], total: 0, hasMore: false } });
    return this.engine.run(found.member, request) as Promise<CompleteResult>;
  }

  /** The scopes of the member a request names (see `MEMBER_METHODS`); unknown: undefined (the handler answers it). */
  scopesOf(target: MemberTarget): readonly string[] | undefined {
    const { tools, prompts, resources } = this.catalogs();
    switch (target.kind) {
      case 'tool': {
        // A call through the search's call tool needs the scopes of the tool it names (the HTTP gate's 403 says which).
        const search = this.catalogs().search;
        const name = search?.serves(target.name) && !search.isSearch(target.name) ? calledName(target.arguments) : target.name;
        return name === undefined ? undefined : tools.get(name)?.info.scopes;
      }
      case 'prompt':
        return prompts.get(target.name)?.info.scopes;
      case 'resource':
        try {
          return resources.resolve(target.uri).member.info.scopes;
        } catch {
          // An extension's resource, or unknown (answered -32602 by the handler).
          return this.extensionMember(target.uri)?.info.scopes;
        }
      case 'completion':
        return (target.of === 'prompt' ? prompts.get(target.name) : resources.member(target.name))?.info.scopes;
    }
  }

  /** Which lists this caller sees anything of (all of them unless lists are filtered by scopes). */
  listsVisibleTo(auth: AuthInfo): { tools: boolean; resources: boolean; prompts: boolean } {
    const shown = this.shownTo(auth);
    if (!shown) return { tools: true, resources: true, prompts: true };
    const { tools, resources, prompts } = this.catalogs();
    return {
      tools: tools.listingFor(shown).length > 0,
      resources: resources.fixedListing(shown).length > 0 || resources.listTemplates(shown).length > 0,
      prompts: prompts.listingFor(shown).length > 0
    };
  }

  /** The chain of the extension that serves `uri`, when one does. */
  private extensionMember(uri: string): CompiledMember | undefined {
    const owner = this.extensionSet.resourceOwner(uri);
    return owner ? this.extensionResources.get(owner.id) : undefined;
  }

  /** What lists show this caller: undefined (everything) unless lists are filtered and the caller has a token. */
  private shownTo(auth: AuthInfo | undefined): ((scopes: readonly string[]) => boolean) | undefined {
    return this.filterLists && auth ? grantedBy(auth) : undefined;
  }

  /** A request refused before any call exists (an unknown name): the JSON-RPC error the boundary makes of it. */
  private refuse(kind: CallKind, subject: string, error: unknown): Promise<never> {
    return Promise.reject(this.boundary.protocolError(error, kind, subject));
  }
}

/** The tool a call tool's arguments name (untrusted: a string or nothing). */
function calledName(args: unknown): string | undefined {
  const name = isPlainJsonObject(args) ? ownValue(args, 'name') : undefined;
  return typeof name === 'string' ? name : undefined;
}

/** Whether a token grants a member's scopes. */
function grantedBy(auth: AuthInfo): (scopes: readonly string[]) => boolean {
  return (scopes) => scopes.length === 0 || missingScopes(scopes, auth.scopes).length === 0;
}
