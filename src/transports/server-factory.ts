import {
  CLIENT_CAPABILITIES_META_KEY,
  McpServer,
  Server,
  isInputRequiredResult,
  type CallToolResult,
  type ClientCapabilities,
  type ServerCapabilities,
  type McpServerFactory,
  type ServerContext
} from '@modelcontextprotocol/server';
import type { Telemetry } from '../telemetry';
import type { Era, InputChannel } from '../types/core';
import type { CallTrace } from '../types/telemetry';
import type { CallRequest, LogSend, ServedRequest } from '../types/request';
import { isPlainJsonObject, ownRecord, ownValue } from '../wire/own-properties';
import type { LiveServers } from './live-servers';
import { serveSetLevel } from './set-level';
import { remoteAddressOf } from './http/connection-facts';
import { progressSender } from './progress-sender';
import { MEMBER_METHOD_NAMES, type MemberMethodName } from './member-methods';
import { PASS_THROUGH, serveMember, type MemberHandler } from './member-handlers';
import { RequestTelemetry, uriOf } from './request-telemetry';
import type { CompletionQuery, ServedApp } from './served-app';

/** Identity and instructions the server announces. */
export interface ServerIdentity {
  readonly name: string;
  readonly version: string;
  readonly instructions?: string;
}

/** What an app serves, and its long-lived connections. */
export interface ServedSurfaces {
  readonly app: ServedApp;
  /** The app's name and version (and instructions), as its servers are built with them. */
  readonly identity: ServerIdentity;
  readonly live: LiveServers;
  /** The app's telemetry (absent: requests are served without spans or metrics). */
  readonly telemetry?: Telemetry;
}

/**
 * The SDK server factory for an app: an `McpServer` whose low-level `server` gets the
 * framework's handlers, which adapt each protocol request to the app (`ServedApp`): what to
 * run, the chains and the error boundary are the app's. Building one costs a few handler
 * registrations, so the per-request factories of the HTTP entry stay cheap. Long-lived
 * instances (stdio, 2025-era sessions) are kept in `live` for change notifications.
 */
export function createServerFactory(surfaces: ServedSurfaces): McpServerFactory {
  const { app, live, telemetry, identity } = surfaces;
  return ({ era, requestInfo }) => {
    const mcp = new FusionMcpServer(
      app,
      { name: identity.name, version: identity.version },
      {
        capabilities: {
          completions: {},
          logging: {},
          ...(app.extensions ? { extensions: app.extensions } : {})
        } as ServerCapabilities,
        ...(identity.instructions ? { instructions: identity.instructions } : {})
      }
    );
    // The framework owns dispatch (the SDK's documented escape hatch): every handler is the
    // framework's. McpServer is the product only so that the HTTP entry applies its SEP-2243
    // `Mcp-Param-*` header validation, which reads `toolInputSchemaJson`. The member capabilities
    // are declared after it is built: given to its constructor, McpServer registers seven handlers
    // of its own for them, which the ones below would replace (a cost on every HTTP request).
    const server = mcp.server;
    server.registerCapabilities({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true }
    });
    const longLived = era === 'legacy' || !requestInfo;
    const liveSubscriptions = longLived ? live.add(server, era) : undefined;
    // A long-lived instance's level also filters what is sent between requests, and is followed by the gateways.
    if (longLived) serveSetLevel(server, live);

    const traced = new RequestTelemetry(telemetry, server, era);
    // A 2026-07-28 server serves the one request it is built for, whose method the SDK has already
    // checked against its `Mcp-Method` header (refused before this factory runs if missing or
    // different): only that method's handler is registered, a cost on every request otherwise.
    const only = era === 'modern' && requestInfo ? requestInfo.headers.get('mcp-method') : null;
    const wanted = (method: string): boolean => only === null || only === method;
    // A per-request server's subscription set is made only where its one request can use it (none for a tool call).
    const subscriptions =
      liveSubscriptions ?? (wanted('resources/subscribe') || wanted('resources/unsubscribe') ? new Set<string>() : undefined);

    // The methods that address one member, from the table that also gives their scopes to the auth gate:
    // each handler is made only for a method this server serves (a 2026-07-28 server: at most one).
    for (const method of MEMBER_METHOD_NAMES)
      if (wanted(method)) serveMember(server, traced, method, memberHandler(method, app, server, era, subscriptions), only !== null);

    if (wanted('tools/list'))
      server.setRequestHandler(
        'tools/list',
        traced.serve('tools/list', undefined, (_request, ctx) => ({ tools: app.listTools(ctx.http?.authInfo) as never[] }))
      );
    serveExtensions(server, app, era, traced, wanted);
    if (wanted('resources/list'))
      server.setRequestHandler(
        'resources/list',
        traced.serve('resources/list', undefined, async (_request, ctx, trace) => ({
          resources: await app.listResources(requestOf(server, ctx, era, trace))
        }))
      );
    if (wanted('resources/templates/list'))
      server.setRequestHandler(
        'resources/templates/list',
        traced.serve('resources/templates/list', undefined, (_request, ctx) => ({
          resourceTemplates: app.listResourceTemplates(ctx.http?.authInfo)
        }))
      );
    if (wanted('resources/unsubscribe'))
      server.setRequestHandler(
        'resources/unsubscribe',
        traced.serve('resources/unsubscribe', uriOf, (request: { params: { uri: string } }) => {
          subscriptions?.delete(request.params.uri);
          return {};
        })
      );
    if (wanted('prompts/list'))
      server.setRequestHandler(
        'prompts/list',
        traced.serve('prompts/list', undefined, (_request, ctx) => ({ prompts: app.listPrompts(ctx.http?.authInfo) as never[] }))
      );
    return mcp;
  };
}

/**
 * An McpServer whose tool schemas come from the app (see `toolInputSchemaJson`), so the SDK's
 * HTTP entry validates `Mcp-Param-*` headers against `x-mcp-header` declarations for it.
 */
class FusionMcpServer extends McpServer {
  constructor(
    private readonly app: ServedApp,
    ...args: ConstructorParameters<typeof McpServer>
  ) {
    super(...args);
  }

  override toolInputSchemaJson(name: string): Record<string, unknown> | undefined {
    return this.app.toolInputSchema(name);
  }
}

/**
 * The handler of one method of `MEMBER_METHODS` for one server, made only when the server serves
 * that method (a 2026-07-28 per-request server serves one: the others' closures would be made on
 * every request for nothing). The switch is exhaustive: a method the table adds has no handler
 * until one is written here.
 */
function memberHandler(
  method: MemberMethodName,
  app: ServedApp,
  server: Server,
  era: Era,
  subscriptions: Set<string> | undefined
): MemberHandler {
  switch (method) {
    case 'tools/call':
      // Not async: the projection runs in the reaction that finishes the call (no promise of ours around it).
      return (params, ctx, trace) => {
        const { name, arguments: args } = params as { name: string; arguments?: Record<string, unknown> };
        const request = requestOf(server, ctx, era, trace, { subject: name, arguments: args, sendProgress: progressSender(ctx) });
        return app.callTool(request, (result) => projected(server, app, name, result as CallToolResult));
      };
    case 'resources/read':
      return (params, ctx, trace) => app.readResource(requestOf(server, ctx, era, trace, { subject: (params as { uri: string }).uri }));
    case 'resources/subscribe':
      return (params) => {
        subscriptions?.add((params as { uri: string }).uri);
        return {};
      };
    case 'prompts/get':
      return (params, ctx, trace) => {
        const { name, arguments: args } = params as { name: string; arguments?: Record<string, string> };
        return app.getPrompt(requestOf(server, ctx, era, trace, { subject: name, arguments: args ?? {} }));
      };
    case 'completion/complete':
      return (params, ctx, trace) => {
        const query = params as unknown as CompletionQuery;
        return app.complete(query, requestOf(server, ctx, era, trace, completed(query)));
      };
    default:
      return unhandled(method);
  }
}

/** A tool's result as the SDK's server sends it (input-required and task results as they are). */
function projected(server: Server, app: ServedApp, name: string, result: CallToolResult): unknown {
  if (isInputRequiredResult(result) || result.resultType === 'task') return result;
  return server.projectCallToolResult(result, app.toolOutputSchema(name));
}

/** A method of `MEMBER_METHODS` without a case in `memberHandler` (a type error first). */
function unhandled(method: never): never {
  throw new Error(`no handler for ${String(method)}`);
}

/** What a request calls, where it calls something: the member named and the material it carried. */
type CallOf = Pick<CallRequest, 'subject' | 'arguments' | 'input' | 'sendProgress'>;

/** What `completion/complete` calls: the prompt or template named, its context's arguments, the value typed so far. */
function completed(query: CompletionQuery): CallOf {
  return {
    subject: query.ref.name ?? query.ref.uri ?? '',
    arguments: ownRecord<string>(query.context?.arguments),
    input: String(query.argument.value ?? '')
  };
}

/**
 * The request a handler serves, built once: with `call`, a call of a member with its real
 * subject (the engine and the member router copy nothing of it); without, what is known before it
 * is known what it runs (a listing, `tasks/*`).
 */
function requestOf(server: Server, ctx: ServerContext, era: Era, trace: CallTrace | undefined): ServedRequest;
function requestOf(server: Server, ctx: ServerContext, era: Era, trace: CallTrace | undefined, call: CallOf): CallRequest;
function requestOf(server: Server, ctx: ServerContext, era: Era, trace: CallTrace | undefined, call?: CallOf): ServedRequest {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared = ownValue(envelope, CLIENT_CAPABILITIES_META_KEY);
  const clientCapabilities = (isPlainJsonObject(declared) ? (declared as ClientCapabilities) : undefined) ?? server.getClientCapabilities();
  const requestState = ctx.mcpReq.requestState();
  // The SDK's own function (an arrow, bound to nothing): no closure of ours per call around it.
  const sendLog = ctx.mcpReq.log as LogSend;
  return {
    signal: ctx.mcpReq.signal,
    requestId: ctx.mcpReq.id,
    meta: ctx.mcpReq._meta as Record<string, unknown> | undefined,
    authInfo: ctx.http?.authInfo,
    httpRequest: ctx.http?.req,
    remoteAddress: remoteAddressOf(ctx.http?.req),
    sessionId: ctx.sessionId,
    era,
    clientCapabilities,
    sendLog,
    requestState: typeof requestState === 'string' ? requestState : undefined,
    inputResponses: ctx.mcpReq.inputResponses,
    inputChannel: channelOf(clientCapabilities, era),
    closeStream: ctx.http?.closeSSE,
    trace,
    ...call
  };
}

/**
 * What this request's connection can deliver: one of a few frozen answers (nothing made per call). 2026-07-28: the capabilities the request
 * declares in its envelope (MRTR needs no live channel). 2025 era: the capabilities from
 * `initialize`, which only a persistent connection (stdio, an HTTP session) has seen; a
 * stateless instance has none, so it has no channel.
 */
export function channelOf(declared: ClientCapabilities | undefined, era: Era): InputChannel {
  if (!declared) return era === 'legacy' ? STATELESS_LEGACY : NOTHING_DECLARED;
  const elicitation = declared.elicitation as { form?: object; url?: object } | undefined;
  const form = elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
  const url = elicitation?.url !== undefined;
  return CHANNELS[(form ? 1 : 0) | (url ? 2 : 0) | (declared.sampling !== undefined ? 4 : 0) | (declared.roots !== undefined ? 8 : 0)]!;
}

/** Every channel a declaration can give, by its bits (form 1, url 2, sampling 4, roots 8): frozen data. */
const CHANNELS: readonly InputChannel[] = Object.freeze(
  Array.from({ length: 16 }, (_, bits) =>
    Object.freeze({ form: (bits & 1) !== 0, url: (bits & 2) !== 0, sampling: (bits & 4) !== 0, roots: (bits & 8) !== 0 })
  )
);
const STATELESS_LEGACY = nothingDeliverable(
  'this 2025-era connection is stateless (no session, no live channel to ask on); use a session, stdio, or a 2026-07-28 client'
);
const NOTHING_DECLARED = nothingDeliverable('the request declared no client capabilities');

/**
 * The methods the app's extensions serve (`tasks/*`, `skills/*`, a user's own), each registered
 * with its params as sent: the extension checks them (and the client's opt-in) itself.
 */
function serveExtensions(server: Server, app: ServedApp, era: Era, traced: RequestTelemetry, wanted: (method: string) => boolean): void {
  for (const method of app.extensionMethods) {
    if (!wanted(method)) continue;
    server.setRequestHandler(
      method,
      { params: PASS_THROUGH },
      traced.serve<unknown, unknown>(method, undefined, (params, ctx, trace) =>
        app.callExtension(method, params, requestOf(server, ctx, era, trace))
      ) as never
    );
  }
}

/** A connection that can deliver no request for input, and why. */
function nothingDeliverable(reason: string): InputChannel {
  return Object.freeze({ form: false, url: false, sampling: false, roots: false, reason });
}
