import type {
  AuthInfo,
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  InputRequiredResult,
  ReadResourceResult,
  Resource
} from '@modelcontextprotocol/server';
import type { WireRequest } from '../auth/http-auth';
import { missingScopes } from '../auth/scopes';
import { NothingToCompleteError, UnknownPromptError, UnknownToolError } from '../errors';
import type { CallKind, ErrorBoundary } from '../pipeline/error-boundary';
import type { PromptCatalog } from '../surface/prompt-catalog';
import type { ResourceCatalog } from '../surface/resource-catalog';
import type { ToolCatalog } from '../surface/tool-catalog';
import type { CompletionQuery, ServedApp, TaskEndpoints } from '../transports/served-app';
import { TASKS_EXTENSION } from '../tasks/task-record';
import type { CallRequest, ServedRequest } from '../types/request';
import { isPlainJsonObject, ownValue } from '../wire/own-properties';
import type { CallEngine } from './call-engine';

/** The catalogs the dispatcher reads, replaced as a whole when providers change at run time. */
export interface Catalogs {
  readonly tools: ToolCatalog;
  readonly resources: ResourceCatalog;
  readonly prompts: PromptCatalog;
}

/**
 * The app as the transports see it: finds the member a request runs and has the engine run its
 * chain (whose error boundary maps every failure of a call). What fails before a call exists
 * (an unknown name) is thrown as a `FusionError` and leaves through the same boundary. Reads
 * the catalogs on each request, so a run-time change of providers applies to the next one.
 */
export class Dispatcher implements ServedApp {
  constructor(
    private readonly engine: CallEngine,
    private readonly boundary: ErrorBoundary,
    private readonly catalogs: () => Catalogs,
    /** Lists show only what the caller's scopes allow (`auth.listing: 'allowed'`). */
    private readonly filterLists = false,
    /** The tasks extension's endpoints, when the app has task-capable tools. */
    readonly tasks?: TaskEndpoints
  ) {
    this.extensions = tasks ? { [TASKS_EXTENSION]: {} } : undefined;
  }

  readonly extensions: Readonly<Record<string, object>> | undefined;

  listTools(auth?: AuthInfo) {
    const shown = this.shownTo(auth);
    return shown ? this.catalogs().tools.listingFor(shown) : this.catalogs().tools.listing;
  }

  toolInputSchema(name: string) {
    return this.catalogs().tools.get(name)?.listing.inputSchema as Record<string, unknown> | undefined;
  }

  toolOutputSchema(name: string) {
    return this.catalogs().tools.get(name)?.outputSchema;
  }

  /** A tool call: its result, a request for input, a `CreateTaskResult`, or an `isError` result; protocol errors are thrown. */
  callTool(request: CallRequest): Promise<CallToolResult | InputRequiredResult | Record<string, unknown>> {
    const tool = this.catalogs().tools.get(request.subject);
    if (!tool) return this.refuse('tool', request.subject, new UnknownToolError(request.subject));
    return this.engine.run(tool, request) as Promise<CallToolResult | InputRequiredResult>;
  }

  async listResources(request: ServedRequest): Promise<Resource[]> {
    const { resources } = this.catalogs();
    const auth = request.authInfo;
    const listed = resources.fixedListing(this.shownTo(auth));
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

  scopesOf(request: WireRequest): readonly string[] | undefined {
    const params = isPlainJsonObject(request.params) ? (request.params as Record<string, unknown>) : undefined;
    const { tools, prompts, resources } = this.catalogs();
    const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
    switch (request.method) {
      case 'tools/call':
        return tools.get(text(ownValue(params, 'name')) ?? '')?.info.scopes;
      case 'prompts/get':
        return prompts.get(text(ownValue(params, 'name')) ?? '')?.info.scopes;
      case 'resources/read':
      case 'resources/subscribe': {
        const uri = text(ownValue(params, 'uri'));
        if (uri === undefined) return undefined;
        try {
          return resources.resolve(uri).member.info.scopes;
        } catch {
          return undefined; // unknown: answered -32602 by the handler
        }
      }
      case 'completion/complete': {
        const ref = ownValue(params, 'ref');
        if (!isPlainJsonObject(ref)) return undefined;
        const type = ownValue(ref as Record<string, unknown>, 'type');
        if (type === 'ref/prompt') return prompts.get(text(ownValue(ref as Record<string, unknown>, 'name')) ?? '')?.info.scopes;
        if (type === 'ref/resource') return resources.member(text(ownValue(ref as Record<string, unknown>, 'uri')) ?? '')?.info.scopes;
        return undefined;
      }
      default:
        return undefined;
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

  /** What lists show this caller: undefined (everything) unless lists are filtered and the caller has a token. */
  private shownTo(auth: AuthInfo | undefined): ((scopes: readonly string[]) => boolean) | undefined {
    return this.filterLists && auth ? grantedBy(auth) : undefined;
  }

  /** A request refused before any call exists (an unknown name): the JSON-RPC error the boundary makes of it. */
  private refuse(kind: CallKind, subject: string, error: unknown): Promise<never> {
    return Promise.reject(this.boundary.protocolError(error, kind, subject));
  }
}

/** Whether a token grants a member's scopes. */
function grantedBy(auth: AuthInfo): (scopes: readonly string[]) => boolean {
  return (scopes) => scopes.length === 0 || missingScopes(scopes, auth.scopes).length === 0;
}
