import type { GetPromptResult, ReadResourceResult, Resource } from '@modelcontextprotocol/client';
import type { CallContext } from '../types/context';
import type { InputRound } from '../interactive/require-input';
import type { InputScope } from '../interactive/input-scope';
import type { Constructor } from '../types/core';
import { namespacedResultUris } from '../compose/namespaced-content';
import { isInputRound } from '../interactive/require-input';
import { forwardCall, type ForwardingGateway } from './forward-tool';
import { namespacedUri } from './namespace';

/** What a gateway's members call on their gateway. */
export interface MembersHost extends ForwardingGateway {
  readonly namespace: string | undefined;
  readResource(uri: string, signal: AbortSignal, sessionId?: string): Promise<ReadResourceResult>;
  listResources(): Promise<Resource[]>;
  renderPrompt(
    frontName: string,
    args: Record<string, string>,
    ctx: CallContext,
    signal: AbortSignal,
    scope: InputScope
  ): Promise<GetPromptResult | InputRound>;
}

/** The class behind a gateway's members (the chain resolves it per call): `forward` is the tools' interactive generator. */
export function membersOf(gateway: MembersHost): Constructor {
  // The URIs an upstream's results name (resource links, embedded resources) under the gateway's namespace, so they read through it.
  const inFront = (uri: string) => namespacedUri(gateway.namespace, uri);
  return class GatewayMembers {
    async *forward(args: Record<string, unknown>, ctx: CallContext, signal: AbortSignal, scope: InputScope) {
      const result = yield* forwardCall(gateway, args, ctx, signal, scope);
      return gateway.namespace === undefined || isInputRound(result) ? result : namespacedResultUris(result, inFront);
    }

    readResource(variables: Record<string, string>, ctx: CallContext, signal: AbortSignal) {
      // The catch-all route's one variable is the URI after the namespace; a listed template's read goes the same way.
      return gateway.readResource(namespacedUri(gateway.namespace, variables.uri ?? ''), signal, ctx.sessionId);
    }

    listResources() {
      return gateway.listResources();
    }

    async renderPrompt(args: Record<string, string>, ctx: CallContext, signal: AbortSignal, scope: InputScope) {
      const result = await gateway.renderPrompt(ctx.tool.name, args, ctx, signal, scope);
      return gateway.namespace === undefined || isInputRound(result) ? result : namespacedResultUris(result, inFront);
    }
  };
}
