import type {
  AuthInfo,
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  InputRequiredResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
  Tool
} from '@modelcontextprotocol/server';
import type { WireRequest } from '../auth/http-auth';
import type { CallRequest } from '../pipeline/call-request';
import type { TaskManager } from '../tasks/task-manager';

/** A `completion/complete` request's parts. */
export interface CompletionQuery {
  readonly ref: { readonly type: string; readonly name?: string; readonly uri?: string };
  readonly argument: { readonly name: string; readonly value: string };
  readonly context?: { readonly arguments?: Readonly<Record<string, string>> };
}

/** What a transport's request carries, before it is known which member it runs. */
export type TransportRequest = Omit<CallRequest, 'subject' | 'arguments' | 'input'>;

/**
 * What the transports serve, as they see it: one method per protocol request. Every failure
 * reaches them already mapped by the app's error boundary (a thrown protocol error, or a tool's
 * `isError` result); they only adapt to the wire. The app implements it (`Dispatcher`).
 */
export interface ServedApp {
  /** `tools/list`: with `auth` and `auth.listing: 'allowed'`, only what the caller's scopes allow. */
  listTools(auth?: AuthInfo): readonly Tool[];
  /** The listed input schema of a tool (the SDK checks `Mcp-Param-*` headers against it). */
  toolInputSchema(name: string): Record<string, unknown> | undefined;
  toolOutputSchema(name: string): Record<string, unknown> | undefined;
  /** A tool call: `subject` is the tool's name, `arguments` its raw arguments. */
  callTool(request: CallRequest): Promise<CallToolResult | InputRequiredResult | Record<string, unknown>>;
  /** The app's tasks (`tasks/get`, `tasks/update`, `tasks/cancel`), when it has task-capable tools. */
  readonly tasks?: TaskManager;
  listResources(request: TransportRequest): Promise<Resource[]>;
  listResourceTemplates(auth?: AuthInfo): ResourceTemplateType[];
  readResource(uri: string, request: TransportRequest): Promise<ReadResourceResult | InputRequiredResult>;
  listPrompts(auth?: AuthInfo): readonly Prompt[];
  getPrompt(name: string, args: Record<string, string>, request: TransportRequest): Promise<GetPromptResult | InputRequiredResult>;
  complete(query: CompletionQuery, request: TransportRequest): Promise<CompleteResult>;
  /** The OAuth scopes a wire request needs (what it calls declares them), for the HTTP entry's 403; none: undefined. */
  scopesOf(request: WireRequest): readonly string[] | undefined;
}
