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
import type { CallRequest, ServedRequest } from '../types/request';
import type { MemberTarget } from './member-methods';

/** A `completion/complete` request's parts. */
export interface CompletionQuery {
  readonly ref: { readonly type: string; readonly name?: string; readonly uri?: string };
  readonly argument: { readonly name: string; readonly value: string };
  readonly context?: { readonly arguments?: Readonly<Record<string, string>> };
}

/** A `subscriptions/listen` request for task status, as the HTTP entry parsed it (untrusted). */
export interface TaskListenRequest {
  readonly id: string | number;
  readonly taskIds: readonly string[];
}

/**
 * What the transports serve, as they see it: one method per protocol request. Every failure
 * reaches them already mapped by the app's error boundary (a thrown protocol error, or a tool's
 * `isError` result); they only adapt to the wire. The app implements it (`MemberRouter`).
 */
export interface ServedApp {
  /** `tools/list`: with `auth` and `auth.listing: 'allowed'`, only what the caller's scopes allow. */
  listTools(auth?: AuthInfo): readonly Tool[];
  /** The listed input schema of a tool (the SDK checks `Mcp-Param-*` headers against it). */
  toolInputSchema(name: string): Record<string, unknown> | undefined;
  toolOutputSchema(name: string): Record<string, unknown> | undefined;
  /**
   * A tool call: `subject` is the tool's name, `arguments` its raw arguments. `then`, where given,
   * is applied to the answer in the reaction that finishes the call (a transport's projection of
   * the result: no promise of its own around the call's); a rejection passes it by.
   */
  callTool(request: CallRequest, then?: (answer: unknown) => unknown): Promise<CallToolResult | InputRequiredResult | Record<string, unknown>>;
  /** The extensions advertised in the server's capabilities (`capabilities.extensions`), when there are any. */
  readonly extensions?: Readonly<Record<string, object>>;
  /** The methods the app's extensions serve (`tasks/get`, `skills/list`, …). */
  readonly extensionMethods: readonly string[];
  /** One request to an extension method: its result, or a thrown protocol error (already mapped). */
  callExtension(method: string, params: unknown, request: ServedRequest): Promise<Record<string, unknown>>;
  listResources(request: ServedRequest): Promise<Resource[]>;
  listResourceTemplates(auth?: AuthInfo): ResourceTemplateType[];
  /** `resources/read`: `subject` is the URI. */
  readResource(request: CallRequest): Promise<ReadResourceResult | InputRequiredResult>;
  listPrompts(auth?: AuthInfo): readonly Prompt[];
  /** `prompts/get`: `subject` is the prompt's name, `arguments` its raw arguments. */
  getPrompt(request: CallRequest): Promise<GetPromptResult | InputRequiredResult>;
  /**
   * `completion/complete`: `query` says what is completed; `subject` is the prompt's name or the
   * template's URI, `arguments` the context's arguments, `input` the value typed so far.
   */
  complete(query: CompletionQuery, request: CallRequest): Promise<CompleteResult>;
  /**
   * The OAuth scopes of the member a request names (`memberTargetOf` reads it from a wire request), for the HTTP
   * entry's 403; unknown, or none declared: undefined.
   */
  scopesOf(target: MemberTarget): readonly string[] | undefined;
}
