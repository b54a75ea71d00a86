import { ProtocolError, ProtocolErrorCode, type InputRequiredResult } from '@modelcontextprotocol/server';
import type { DependencyContainer } from 'tsyringe';
import { raceAbort } from '../concurrency/abort';
import { InvalidRequestStateError } from '../errors';
import { MAX_INPUT_ROUNDS, resume, seal } from '../interactive/continuation';
import type { ContinuationStore } from '../interactive/continuation-store';
import { assertDeliverable, toInputRequiredResult, type InputChannel } from '../interactive/input-required';
import { withInputScope } from '../interactive/input-scope';
import { isInputRound } from '../interactive/require-input';
import type { Constructor, ParamKind } from '../metadata/types';
import type { RequestExtra, RequestFacts, ToolInfo } from '../pipeline/call-context';
import { createCallContext, type ContextFactory } from '../pipeline/call-context-factory';
import { LogChannel, type LogSend } from '../pipeline/call-log';

/** One request to a resource, template, prompt (or tool), as a transport hands it over. */
export interface SurfaceCall extends RequestFacts {
  readonly signal: AbortSignal;
  /** Present when the connection can carry log messages. */
  readonly sendLog?: LogSend;
  /** The continuation echoed by the client (MRTR `requestState`), raw and untrusted. */
  readonly requestState?: string;
  /** Answers to the previous round's requests for input, raw and untrusted. */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /** What this connection can deliver; absent: nothing. */
  readonly inputChannel?: InputChannel;
}

/** What invoking members needs from the app. */
export interface InvokerDependencies {
  readonly container: DependencyContainer;
  readonly contextFactory?: ContextFactory;
  readonly store: ContinuationStore;
  readonly principalOf: (extra: RequestExtra) => string | undefined;
}

/** A member method to invoke: its class, method and parameter kinds. */
export interface InvokableMember {
  readonly target: Constructor;
  readonly methodName: string;
  readonly params: readonly ParamKind[];
  readonly interactive: boolean;
  /** Interactive: each issued `requestState` is accepted once. */
  readonly singleUseState?: boolean;
}

/**
 * Calls the method of a resource, template or prompt with a fresh instance from a per-call
 * container and the same context tools get. An `@Interactive()` member may return a request
 * for input: it becomes an input-required result (its continuation signed and bound to
 * `name` and `args`), and a declined request ends with a JSON-RPC error.
 */
export async function invokeMember(
  deps: InvokerDependencies,
  member: InvokableMember,
  info: ToolInfo,
  args: Readonly<Record<string, unknown>>,
  input: unknown,
  call: SurfaceCall
): Promise<{ value: unknown } | { inputRequired: InputRequiredResult }> {
  const extra = requestExtra(call, call.signal, info.name, args);
  const log = new LogChannel(call.sendLog);
  const { ctx, container } = await createCallContext(deps.container, deps.contextFactory, extra, info, undefined, log);
  const run = async (): Promise<unknown> => {
    const instance = container.resolve(member.target) as Record<string, (...a: unknown[]) => unknown>;
    const values = member.params.map((kind) => (kind === 'input' ? input : kind === 'signal' ? call.signal : ctx));
    const result = instance[member.methodName](...values);
    return result instanceof Promise ? raceAbort(result, call.signal) : result;
  };
  try {
    if (!member.interactive) return { value: await run() };
    const binding = {
      name: `${info.kind}:${info.name}`,
      args,
      principal: deps.principalOf(extra) ?? null,
      singleUse: member.singleUseState === true
    };
    const resumed = await resume(deps.store, binding, call.requestState, call.inputResponses).catch((error: unknown) => {
      throw error instanceof InvalidRequestStateError ? new ProtocolError(ProtocolErrorCode.InvalidParams, error.message) : error;
    });
    if (resumed.kind === 'end') {
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, (resumed.result.content[0] as { text: string }).text);
    }
    const { answers, statuses, state } = resumed.progress;
    const value = resumed.kind === 'reask' ? resumed.round : await withInputScope({ answers, statuses, state }, run);
    if (!isInputRound(value)) return { value };
    if (resumed.progress.round >= MAX_INPUT_ROUNDS) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `${info.name} asked for input more than ${MAX_INPUT_ROUNDS} times; the request was ended.`
      );
    }
    assertDeliverable(value, call.inputChannel);
    return { inputRequired: toInputRequiredResult(value, await seal(deps.store, binding, resumed.progress, value)) };
  } finally {
    await log.flush();
  }
}

/** The `extra` handed to `contextFactory`, from what the transport said about the request. */
export function requestExtra(
  facts: RequestFacts,
  signal: AbortSignal,
  toolName: string,
  args: Readonly<Record<string, unknown>>
): RequestExtra {
  return {
    signal,
    toolName,
    arguments: args,
    requestId: facts.requestId,
    meta: facts.meta,
    authInfo: facts.authInfo,
    httpRequest: facts.httpRequest,
    sessionId: facts.sessionId,
    era: facts.era,
    clientCapabilities: facts.clientCapabilities,
    closeStream: facts.closeStream
  };
}
