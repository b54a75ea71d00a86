import { ProtocolError, isInputRequiredResult, type CallToolResult, type InputRequiredResult } from '@modelcontextprotocol/server';
import { CallAbort } from '../concurrency/call-abort';
import { AppClosedError, FusionError } from '../errors';
import { firstEntry } from '../interactive/continuation';
import type { ContinuationStore } from '../interactive/continuation-store';
import { emptyInputScope, withInputScope } from '../interactive/input-scope';
import type { RequestExtra } from '../pipeline/call-context';
import { argumentsOf, requestExtraOf } from '../pipeline/call-context-factory';
import { LogChannel } from '../pipeline/call-log';
import type { CallRequest } from '../pipeline/call-request';
import type { CallState } from '../pipeline/call-state';
import type { CompiledMember, CompiledTool } from '../pipeline/compiled-member';
import type { ErrorBoundary } from '../pipeline/error-boundary';
import { ProgressChannel } from '../pipeline/progress';
import { ownValue } from '../wire/own-properties';

export type { CallRequest } from '../pipeline/call-request';

/** Engine-wide settings for interactive members. */
export interface InteractionSettings {
  readonly store: ContinuationStore;
  readonly principalOf: (extra: RequestExtra) => string | undefined;
}

/**
 * Runs a request through its member's compiled chain, for every kind alike. Owns the per-call
 * abort (`CallAbort`: the request's signal, a timeout, the app's shutdown all end it) and the end
 * of the call (the call's container is disposed). Failures are the error boundary's to map.
 */
export class CallEngine {
  private readonly inFlight = new Set<CallAbort>();
  private closed = false;

  constructor(
    private readonly interaction: InteractionSettings,
    readonly boundary: ErrorBoundary
  ) {}

  /** Calls in flight now. */
  get activeCalls(): number {
    return this.inFlight.size;
  }

  /**
   * A tool call: its result, an input-required result, or a failure as an `isError` result;
   * protocol-level failures (a bad `requestState`, a missing capability) are thrown.
   */
  callTool(tool: CompiledTool, request: CallRequest): Promise<CallToolResult | InputRequiredResult> {
    let state: CallState;
    try {
      if (this.closed) throw new AppClosedError();
      state = this.start(tool, request);
    } catch (error) {
      return Promise.resolve().then(() => this.boundary.toolResult(error, tool.info.name));
    }
    // One chained pair for the call's end and its result (a call waiting in the queue keeps no suspended frame here).
    return this.chain(state).then(
      (value) => {
        this.end(state);
        const result = value as CallToolResult | InputRequiredResult;
        if (isInputRequiredResult(result) && tool.answersUpFront && answersSentUpFront(request, result)) {
          // A read-only tool that opted in: answers came with the first call (no state yet); read
          // them against the requests just made, as on a retry. Once only.
          return this.callTool(tool, { ...request, requestState: result.requestState });
        }
        return result;
      },
      (error: unknown) => {
        this.end(state);
        if (request.exceptionsFail && !(error instanceof FusionError) && !(error instanceof ProtocolError)) {
          throw this.boundary.protocolError(error, 'tool', tool.info.name);
        }
        return this.boundary.toolResult(error, tool.info.name);
      }
    );
  }

  /** Runs any member's chain; resolves with what its presentation step made, rejects with the failure as thrown. */
  run(member: CompiledMember, request: CallRequest): Promise<unknown> {
    let state: CallState;
    try {
      if (this.closed) throw new AppClosedError();
      state = this.start(member, request);
    } catch (error) {
      return Promise.reject(error);
    }
    // Chained rather than awaited (one suspended frame fewer per waiting call); the end runs either way.
    return this.chain(state).then(
      (value) => {
        this.end(state);
        return value;
      },
      (error: unknown) => {
        this.end(state);
        throw error;
      }
    );
  }

  /** A call's state, its abort in the in-flight set. */
  private start(member: CompiledMember, request: CallRequest): CallState {
    const aborter = new CallAbort(request.signal);
    this.inFlight.add(aborter);
    const interactive = member.info.interactive;
    const state: CallState = {
      member,
      aborter,
      upstream: request.signal,
      request,
      args: argumentsOf(request),
      extra: undefined,
      subject: request.subject,
      log: new LogChannel(request.sendLog),
      progress: request.sendProgress ? new ProgressChannel(request.sendProgress) : undefined,
      inputChannel: request.inputChannel,
      ctx: undefined,
      scope: undefined,
      input: request.input,
      interaction: undefined,
      inputScope: interactive ? emptyInputScope() : undefined
    };
    if (interactive) {
      try {
        state.interaction = {
          requestState: request.requestState,
          inputResponses: request.inputResponses,
          principal: this.interaction.principalOf(requestExtraOf(state)) ?? null,
          progress: firstEntry()
        };
      } catch (error) {
        this.end(state);
        throw error;
      }
    }
    return state;
  }

  /** The member's chain, inside the call's input scope where it has one; a synchronous throw is a rejection. */
  private chain(state: CallState): Promise<unknown> {
    try {
      return state.inputScope ? withInputScope(state.inputScope, () => state.member.run(state)) : state.member.run(state);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The end of a call: it stops following its request, leaves the in-flight set, and its own instances are disposed. */
  private end(state: CallState): void {
    state.aborter.detach();
    this.inFlight.delete(state.aborter);
    // Not awaited by the response: disposing a call's own instances is the call's end, not its answer.
    const disposing = state.scope?.dispose();
    if (disposing) disposing.catch(() => undefined);
  }

  /** Refuses new calls and aborts those in flight (graceful shutdown). */
  close(): void {
    this.closed = true;
    for (const aborter of this.inFlight) aborter.abort(new AppClosedError());
  }
}

/** Whether a first call (no continuation yet) carries answers to requests the tool just made. */
function answersSentUpFront(request: CallRequest, result: InputRequiredResult): boolean {
  if (request.requestState !== undefined || !request.inputResponses) return false;
  return Object.keys(result.inputRequests ?? {}).some((key) => {
    const answer = ownValue(request.inputResponses, key);
    return answer !== undefined && answer !== null;
  });
}
