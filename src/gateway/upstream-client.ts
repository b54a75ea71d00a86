import { Client, type LoggingMessageNotificationParams, type Tool } from '@modelcontextprotocol/client';
import type { UpstreamAnswer, UpstreamAsk } from './upstream-call';
import type { UpstreamEra } from './upstream-events';
import type { ResolvedTarget } from './upstream-target';
import { answered } from './upstream-wire';
import { UPSTREAM_LIMITS } from './guards/limits';

/** Where the gateway's SDK client hands what the upstream sends outside a call's response (see {@link upstreamClient}). */
export interface UpstreamClientHandlers {
  /** A request of the client (a question, a sampling request, a roots listing), answered for the call that caused it. */
  readonly question: (ask: UpstreamAsk, requestId: string | number) => Promise<UpstreamAnswer>;
  /** The upstream's tool, prompt or resource list changed. */
  readonly changed: () => void;
  /** A resource watched upstream changed (its upstream URI). */
  readonly resourceUpdated: (uri: string) => void;
  /** A log message that reached the SDK: the connection's tap gave it to no call. */
  readonly logged: (message: LoggingMessageNotificationParams) => void;
}

/**
 * The SDK v2 client a connection speaks to its upstream through (not yet connected): it declares
 * every request a server may make of its client, speaks `era` (an HTTP+SSE upstream the 2025 era
 * whatever `era` says), and hands what the upstream sends outside a call to `handlers`.
 */
export function upstreamClient(target: ResolvedTarget, era: UpstreamEra, handlers: UpstreamClientHandlers): Client {
  const client = new Client(
    { name: 'mcpfusion-gateway', version: '1.0.0' },
    {
      // Every kind of request a server may make of its client: each is forwarded to the front client that made the call.
      capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
      // The SDK gathers a listing's pages itself: its cap on pages is the gateway's (bytes and tools are counted in the connection's `tap`).
      listMaxPages: UPSTREAM_LIMITS.maxListingPages,
      // An HTTP+SSE server predates 2026-07-28: it is spoken to in the 2025 era whatever `era` says.
      versionNegotiation: {
        mode: era === '2025' || (target.kind === 'http' && target.sse) ? 'legacy' : era === '2026' ? { pin: '2026-07-28' } : 'auto'
      },
      listChanged: {
        tools: { autoRefresh: false, debounceMs: 0, onChanged: () => handlers.changed() },
        prompts: { autoRefresh: false, debounceMs: 0, onChanged: () => handlers.changed() },
        resources: { autoRefresh: false, debounceMs: 0, onChanged: () => handlers.changed() }
      }
    }
  );
  client.setRequestHandler(
    'elicitation/create',
    async (request, ctx) =>
      answered(await handlers.question({ method: 'elicitation/create', params: request.params }, ctx.mcpReq.id)) as never
  );
  client.setRequestHandler(
    'sampling/createMessage',
    async (request, ctx) =>
      answered(await handlers.question({ method: 'sampling/createMessage', params: request.params }, ctx.mcpReq.id)) as never
  );
  client.setRequestHandler(
    'roots/list',
    async (_request, ctx) => answered(await handlers.question({ method: 'roots/list' }, ctx.mcpReq.id)) as never
  );
  client.setNotificationHandler('notifications/resources/updated', (notification) => handlers.resourceUpdated(notification.params.uri));
  // What `tap` could give to no call: the upstream's logging between calls (or on its own stream).
  client.setNotificationHandler('notifications/message', (notification) => handlers.logged(notification.params));
  return client;
}

/** What an upstream serves besides tools, as its capabilities declare. */
export interface ServedCapabilities {
  readonly resources: boolean;
  readonly subscribe: boolean;
  readonly prompts: boolean;
  readonly completions: boolean;
}

/** What the upstream `client` is connected to serves besides tools (its declared capabilities). */
export function servedCapabilities(client: Client): ServedCapabilities {
  const declared = client.getServerCapabilities() ?? {};
  return {
    resources: declared.resources !== undefined,
    subscribe: declared.resources?.subscribe === true,
    prompts: declared.prompts !== undefined,
    completions: declared.completions !== undefined
  };
}

/** Every tool the upstream lists, page after page (the SDK's cap on pages and the connection's guard bound it). */
export async function listAllTools(client: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}
