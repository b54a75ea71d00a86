import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type CompleteResult,
  type GetPromptResult,
  type InputRequiredResult,
  type ReadResourceResult,
  type Resource
} from '@modelcontextprotocol/server';
import { UnknownToolError } from '../errors';
import type { CallKind } from '../pipeline/error-boundary';
import type { PromptCatalog } from '../surface/prompt-catalog';
import type { ResourceCatalog } from '../surface/resource-catalog';
import type { ToolCatalog } from '../surface/tool-catalog';
import type { CompletionQuery, ServedApp, TransportRequest } from '../transports/served-app';
import { ownRecord } from '../wire/own-properties';
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
    private readonly catalogs: () => Catalogs
  ) {}

  listTools() {
    return this.catalogs().tools.listing;
  }

  toolInputSchema(name: string) {
    return this.catalogs().tools.get(name)?.listing.inputSchema as Record<string, unknown> | undefined;
  }

  toolOutputSchema(name: string) {
    return this.catalogs().tools.get(name)?.outputSchema;
  }

  callTool(request: CallRequest): Promise<CallToolResult | InputRequiredResult> {
    const tool = this.catalogs().tools.get(request.subject);
    if (!tool) return Promise.reject(this.engine.boundary.protocolError(new UnknownToolError(request.subject), 'tool', request.subject));
    return this.engine.callTool(tool, request);
  }

  async listResources(request: TransportRequest): Promise<Resource[]> {
    const { resources } = this.catalogs();
    const listed = resources.fixedListing();
    for (const member of resources.listMembers()) {
      listed.push(
        ...((await this.guard('resource', member.info.name, () =>
          this.engine.run(member, { ...request, subject: member.info.name })
        )) as Resource[])
      );
    }
    return listed;
  }

  listResourceTemplates() {
    return this.catalogs().resources.listTemplates();
  }

  readResource(uri: string, request: TransportRequest): Promise<ReadResourceResult | InputRequiredResult> {
    return this.guard('resource', uri, () => {
      const target = this.catalogs().resources.resolve(uri);
      return this.engine.run(target.member, { ...request, subject: uri, arguments: target.arguments, input: target.arguments });
    }) as Promise<ReadResourceResult | InputRequiredResult>;
  }

  listPrompts() {
    return this.catalogs().prompts.listing;
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

  /** Runs `work`; any failure leaves as the protocol error the boundary makes of it. */
  private async guard(kind: CallKind, subject: string, work: () => Promise<unknown>): Promise<unknown> {
    try {
      return await work();
    } catch (error) {
      throw this.engine.boundary.protocolError(error, kind, subject);
    }
  }
}
