import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type CompleteResult,
  type GetPromptResult,
  type InputRequiredResult,
  type AuthInfo,
  type ReadResourceResult,
  type Resource
} from '@modelcontextprotocol/server';
import type { WireRequest } from '../auth/http-auth';
import { missingScopes } from '../auth/scopes';
import { MissingCapabilityError, UnknownToolError } from '../errors';
import { TASKS_EXTENSION, declaresTasks } from '../tasks/task-record';
import type { TaskManager } from '../tasks/task-manager';
import type { CallKind } from '../pipeline/error-boundary';
import type { PromptCatalog } from '../surface/prompt-catalog';
import type { ResourceCatalog } from '../surface/resource-catalog';
import type { ToolCatalog } from '../surface/tool-catalog';
import type { CompletionQuery, ServedApp, TransportRequest } from '../transports/served-app';
import { isPlainJsonObject, ownRecord, ownValue } from '../wire/own-properties';
import type { CallEngine, CallRequest } from './call-engine';

/** The catalogs the dispatcher reads, replaced as a whole when providers change at run time. */
export interface Catalogs {
  readonly tools: ToolCatalog;
  readonly resources: ResourceCatalog;
  readonly prompts: PromptCatalog;
}

/**
 * The app as the transports see it: finds the member a request runs, has the engine run its
 * chain, and hands every failure to the one error boundary. Reads the catalogs on each request,
 * so a run-time change of providers applies to the next one.
 */
export class Dispatcher implements ServedApp {
  constructor(
    private readonly engine: CallEngine,
    private readonly catalogs: () => Catalogs,
    /** Lists show only what the caller's scopes allow (`auth.listing: 'allowed'`). */
    private readonly filterLists = false,
    /** Runs task-capable tools as tasks (the tasks extension). */
    readonly tasks?: TaskManager
  ) {}

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

  callTool(request: CallRequest): Promise<CallToolResult | InputRequiredResult | Record<string, unknown>> {
    const tool = this.catalogs().tools.get(request.subject);
    if (!tool) return this.unknownTool(request.subject);
    const task = tool.descriptor.task;
    if (task) {
      // The server decides per request: a task only for a 2026-07-28 request that declared the extension.
      if (this.tasks && request.era === 'modern' && declaresTasks(request.clientCapabilities)) {
        return this.tasks.start(tool.info.name, task, request);
      }
      if (task.support === 'required') {
        const error = new MissingCapabilityError(tool.info.name, { extensions: { [TASKS_EXTENSION]: {} } });
        return Promise.reject(this.engine.boundary.protocolError(error, 'tool', request.subject));
      }
    }
    return this.engine.callTool(tool, request);
  }

  /** One round of a task: the tool's chain, as a synchronous call. */
  runToolRound(name: string, request: CallRequest): Promise<CallToolResult | InputRequiredResult> {
    const tool = this.catalogs().tools.get(name);
    return tool ? this.engine.callTool(tool, request) : this.unknownTool(name);
  }

  /** An unknown tool, as the protocol error (-32602) the boundary makes of it. */
  private unknownTool(name: string): Promise<never> {
    return Promise.reject(this.engine.boundary.protocolError(new UnknownToolError(name), 'tool', name));
  }

  async listResources(request: TransportRequest): Promise<Resource[]> {
    const { resources } = this.catalogs();
    const auth = request.authInfo;
    const listed = resources.fixedListing(this.shownTo(auth));
    // A template's list method is run only for a caller its scopes allow, whatever the listing option.
    for (const member of resources.listMembers(auth ? grantedBy(auth) : undefined)) {
      listed.push(
        ...((await this.guard('resource', member.info.name, () =>
          this.engine.run(member, { ...request, subject: member.info.name })
        )) as Resource[])
      );
    }
    return listed;
  }

  listResourceTemplates(auth?: AuthInfo) {
    return this.catalogs().resources.listTemplates(this.shownTo(auth));
  }

  readResource(uri: string, request: TransportRequest): Promise<ReadResourceResult | InputRequiredResult> {
    return this.guard('resource', uri, () => {
      const target = this.catalogs().resources.resolve(uri);
      return this.engine.run(target.member, { ...request, subject: uri, arguments: target.arguments, input: target.arguments });
    }) as Promise<ReadResourceResult | InputRequiredResult>;
  }

  listPrompts(auth?: AuthInfo) {
    const shown = this.shownTo(auth);
    return shown ? this.catalogs().prompts.listingFor(shown) : this.catalogs().prompts.listing;
  }

  getPrompt(name: string, args: Record<string, string>, request: TransportRequest): Promise<GetPromptResult | InputRequiredResult> {
    return this.guard('prompt', name, () => {
      const prompt = this.catalogs().prompts.get(name);
      if (!prompt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name}`);
      return this.engine.run(prompt, { ...request, subject: name, arguments: args });
    }) as Promise<GetPromptResult | InputRequiredResult>;
  }

  complete(query: CompletionQuery, request: TransportRequest): Promise<CompleteResult> {
    const subject = query.ref.name ?? query.ref.uri ?? '';
    return this.guard('completion', subject, async () => {
      const { prompts, resources } = this.catalogs();
      const found =
        query.ref.type === 'ref/prompt'
          ? prompts.completer(query.ref.name ?? '', query.argument.name)
          : query.ref.type === 'ref/resource'
            ? resources.completer(query.ref.uri ?? '', query.argument.name)
            : { known: false };
      if (!found.known) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Nothing to complete for ${JSON.stringify(query.ref)}`);
      if (!found.member) return { completion: { values: [], total: 0, hasMore: false } };
      const args = ownRecord<string>(query.context?.arguments);
      return this.engine.run(found.member, { ...request, subject, arguments: args, input: String(query.argument.value ?? '') });
    }) as Promise<CompleteResult>;
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

  /** What lists show this caller: undefined (everything) unless lists are filtered and the caller has a token. */
  private shownTo(auth: AuthInfo | undefined): ((scopes: readonly string[]) => boolean) | undefined {
    return this.filterLists && auth ? grantedBy(auth) : undefined;
  }

  /** Runs `work`; any failure leaves as the protocol error the boundary makes of it. */
  private async guard(kind: CallKind, subject: string, work: () => Promise<unknown>): Promise<unknown> {
    try {
      return await work();
    } catch (error) {
      throw this.engine.boundary.protocolError(error, kind, subject);
    }
  }
}

/** Whether a token grants a member's scopes. */
function grantedBy(auth: AuthInfo): (scopes: readonly string[]) => boolean {
  return (scopes) => scopes.length === 0 || missingScopes(scopes, auth.scopes).length === 0;
}
