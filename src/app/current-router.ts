import type { AuthInfo } from '@modelcontextprotocol/server';
import { TaskNotFoundError } from '../errors';
import type { ListenRouter, ParsedListen } from '../transports/http/task-listen-request';
import type { MemberTarget } from '../transports/member-methods';
import type { CompletionQuery, ServedApp } from '../transports/served-app';
import type { CallRequest, ServedRequest } from '../types/request';
import type { MemberRouter } from './member-router';

/**
 * The app's router as its long-lived serving parts hold it: the SDK servers of 2025-era sessions
 * and stdio, the HTTP endpoints' listens and auth gate. Each request is handed to the router of
 * the app's definition of the moment, so an `adopt` (a reload in `mcpfusion dev`) swaps what is
 * served under sessions that stay open. What a server reads once when it is made (its
 * capabilities, the extension methods it registers) is that of the definition at the time.
 */
export class CurrentRouter implements ServedApp, ListenRouter {
  constructor(private readonly current: () => MemberRouter) {}

  get extensions(): ServedApp['extensions'] {
    return this.current().extensions;
  }

  get extensionMethods(): readonly string[] {
    return this.current().extensionMethods;
  }

  listTools(auth?: AuthInfo): ReturnType<ServedApp['listTools']> {
    return this.current().listTools(auth);
  }

  toolInputSchema(name: string): Record<string, unknown> | undefined {
    return this.current().toolInputSchema(name);
  }

  toolOutputSchema(name: string): Record<string, unknown> | undefined {
    return this.current().toolOutputSchema(name);
  }

  callTool(request: CallRequest, then?: (answer: unknown) => unknown): ReturnType<ServedApp['callTool']> {
    return this.current().callTool(request, then);
  }

  callExtension(method: string, params: unknown, request: ServedRequest): Promise<Record<string, unknown>> {
    return this.current().callExtension(method, params, request);
  }

  listResources(request: ServedRequest): ReturnType<ServedApp['listResources']> {
    return this.current().listResources(request);
  }

  listResourceTemplates(auth?: AuthInfo): ReturnType<ServedApp['listResourceTemplates']> {
    return this.current().listResourceTemplates(auth);
  }

  readResource(request: CallRequest): ReturnType<ServedApp['readResource']> {
    return this.current().readResource(request);
  }

  listPrompts(auth?: AuthInfo): ReturnType<ServedApp['listPrompts']> {
    return this.current().listPrompts(auth);
  }

  getPrompt(request: CallRequest): ReturnType<ServedApp['getPrompt']> {
    return this.current().getPrompt(request);
  }

  complete(query: CompletionQuery, request: CallRequest): ReturnType<ServedApp['complete']> {
    return this.current().complete(query, request);
  }

  scopesOf(target: MemberTarget): readonly string[] | undefined {
    return this.current().scopesOf(target);
  }

  listsVisibleTo(auth: AuthInfo): ReturnType<MemberRouter['listsVisibleTo']> {
    return this.current().listsVisibleTo(auth);
  }

  /** A listen is the current definition's extensions' to answer (none: the HTTP entry treats it as any other request). */
  accepts(listen: ParsedListen): boolean {
    return this.current().listens?.accepts(listen) ?? false;
  }

  open(listen: ParsedListen, authInfo: AuthInfo | undefined, signal: AbortSignal, httpRequest?: Request): Promise<Response> {
    const listens = this.current().listens;
    // `accepts` said yes just before: only a reload in between (to a definition without tasks) leads here.
    if (!listens) return Promise.reject(new TaskNotFoundError());
    return listens.open(listen, authInfo, signal, httpRequest);
  }
}
