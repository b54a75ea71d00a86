import type { CallToolResult, ClientCapabilities, InputRequiredResult, Tool } from '@modelcontextprotocol/server';
import type { DependencyContainer } from 'tsyringe';
import {
  AppClosedError,
  CancelledError,
  InputRoundsExceededError,
  InvalidRequestStateError,
  MissingCapabilityError,
  NotInteractiveError,
  TimeoutError,
  UnknownToolError
} from '../errors';
import { MAX_INPUT_ROUNDS, firstEntry, seal } from '../interactive/continuation';
import type { ContinuationStore } from '../interactive/continuation-store';
import { emptyInputScope, withInputScope } from '../interactive/input-scope';
import { assertDeliverable, toInputRequiredResult, type InputChannel } from '../interactive/input-required';
import { isInputRound, type InputRound } from '../interactive/require-input';
import { raceAbort } from '../concurrency/abort';
import { ownValue } from '../wire/own-properties';
import { LogChannel } from '../pipeline/call-log';
import { requestExtra, type SurfaceCall } from '../surface/member-invoker';
import { EndOfCall } from '../pipeline/end-of-call';
import type { RequestExtra } from '../pipeline/call-context';
import type { CallState } from '../pipeline/call-state';
import type { CompiledTool } from '../pipeline/compiled-tool';
import { ProgressChannel, type ProgressSend } from '../pipeline/progress';
import { errorResult, shapeValue } from '../presenters/default-shaping';
import type { PresentationContext, Presenter } from '../presenters/presenter';

export type { InputChannel } from '../interactive/input-required';

/** One tool call as the engine receives it, from a transport or from the test harness. */
export interface CallRequest extends Omit<SurfaceCall, 'signal'> {
  readonly name: string;
  readonly arguments?: Readonly<Record<string, unknown>>;
  /** The request's own signal (client cancellation, disconnect). */
  readonly signal?: AbortSignal;
  /** Present only when the call carried a progress token and there is a channel for it. */
  readonly sendProgress?: ProgressSend;
  /** Internal: the first-call answers have been read once already. */
  readonly answersReplayed?: boolean;
}

/** Engine-wide settings for interactive tools. */
export interface InteractionSettings {
  readonly store: ContinuationStore;
  readonly principalOf: (extra: RequestExtra) => string | undefined;
}

const EMPTY_ARGS: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * Runs calls through the compiled chains and presents their results. Owns the
 * per-call AbortController (request signal, per-tool timeout, app shutdown all end it).
 */
export class ToolEngine {
  private tools: ReadonlyMap<string, CompiledTool>;
  private readonly inFlight = new Set<AbortController>();
  private closed = false;
  /** The `tools/list` entries, built once (and again when tools change at run time). */
  listing: readonly Tool[];

  constructor(
    tools: readonly CompiledTool[],
    private readonly container: DependencyContainer,
    private readonly interaction: InteractionSettings
  ) {
    this.tools = new Map(tools.map((tool) => [tool.descriptor.name, tool]));
    this.listing = Object.freeze(tools.map((tool) => tool.listing));
  }

  /** Replaces the tool set (run-time registration); calls in flight keep the tool they started with. */
  replace(tools: readonly CompiledTool[]): void {
    this.tools = new Map(tools.map((tool) => [tool.descriptor.name, tool]));
    this.listing = Object.freeze(tools.map((tool) => tool.listing));
  }

  /** A compiled tool by name. */
  get(name: string): CompiledTool | undefined {
    return this.tools.get(name);
  }

  /** Calls in flight now. */
  get activeCalls(): number {
    return this.inFlight.size;
  }

  /**
   * Runs one call and returns its shaped result (or an input-required result). Throws
   * UnknownToolError for an unknown name and InvalidRequestStateError for a bad echoed
   * continuation (protocol errors, not tool results); every other failure is an `isError` result.
   */
  async call(request: CallRequest): Promise<CallToolResult | InputRequiredResult> {
    const tool = this.tools.get(request.name);
    if (!tool) throw new UnknownToolError(request.name);
    if (this.closed) return errorResult(new AppClosedError());

    const controller = new AbortController();
    const upstream = request.signal;
    const onUpstreamAbort = (): void => controller.abort(new CancelledError(upstream?.reason));
    if (upstream) {
      if (upstream.aborted) onUpstreamAbort();
      else upstream.addEventListener('abort', onUpstreamAbort, { once: true });
    }
    const { timeoutMs } = tool.descriptor;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => controller.abort(new TimeoutError(tool.descriptor.name, timeoutMs)), timeoutMs);
    this.inFlight.add(controller);

    const progress = request.sendProgress ? new ProgressChannel(request.sendProgress) : undefined;
    const extra = requestExtra(request, controller.signal, request.name, request.arguments ?? EMPTY_ARGS);
    const log = new LogChannel(request.sendLog);
    const interactive = tool.descriptor.interactive;
    const state: CallState = {
      tool,
      signal: controller.signal,
      extra,
      progress,
      log,
      ctx: undefined,
      container: undefined,
      input: undefined,
      interaction: interactive
        ? {
            requestState: request.requestState,
            inputResponses: request.inputResponses,
            principal: this.interaction.principalOf(extra) ?? null,
            progress: firstEntry()
          }
        : undefined,
      inputScope: interactive ? emptyInputScope() : undefined
    };
    try {
      assertCapabilities(tool, request.clientCapabilities);
      const value = await (state.inputScope ? withInputScope(state.inputScope, () => tool.run(state)) : tool.run(state));
      const result =
        value instanceof EndOfCall
          ? value.result
          : isInputRound(value)
            ? await this.ask(state, value, request.inputChannel)
            : await this.present(tool, state, value);
      await Promise.all([progress?.flush(), log.flush()]);
      if (isInputRound(value) && tool.descriptor.answersUpFront && answersAlreadyGiven(request, value)) {
        // A read-only tool that opted in: the client sent answers with its first call (no
        // state yet); read them against the requests just made, as on a retry. Once only.
        return await this.call({ ...request, requestState: (result as InputRequiredResult).requestState, answersReplayed: true });
      }
      return result;
    } catch (error) {
      // Forged, expired or foreign continuation state is a protocol error (-32602), not a tool result.
      if (error instanceof InvalidRequestStateError || error instanceof MissingCapabilityError) throw error;
      // A cancelled call gets no response, and nothing it produced afterwards leaks out.
      if (upstream?.aborted) progress?.discard();
      else await Promise.all([progress?.flush(), log.flush()]);
      return errorResult(error);
    } finally {
      if (timer) clearTimeout(timer);
      upstream?.removeEventListener('abort', onUpstreamAbort);
      this.inFlight.delete(controller);
    }
  }

  /**
   * Turns a handler's request for input into an input-required result: the lock and the
   * queue slot are already free (the chain has returned), so nothing is held while a
   * human answers. The continuation is sealed into `requestState`.
   */
  private async ask(state: CallState, round: InputRound, channel: InputChannel | undefined): Promise<InputRequiredResult> {
    const { descriptor } = state.tool;
    const interaction = state.interaction;
    if (!interaction) throw new NotInteractiveError(`Tool ${descriptor.name} (${descriptor.className}.${descriptor.methodName})`);
    if (interaction.progress.round >= MAX_INPUT_ROUNDS) throw new InputRoundsExceededError(descriptor.name, MAX_INPUT_ROUNDS);
    assertDeliverable(round, channel);
    const binding = {
      name: descriptor.name,
      args: state.extra.arguments,
      principal: interaction.principal,
      singleUse: descriptor.singleUseState
    };
    return toInputRequiredResult(round, await seal(this.interaction.store, binding, interaction.progress, round));
  }

  /** Refuses new calls and aborts those in flight (graceful shutdown). */
  close(): void {
    this.closed = true;
    for (const controller of this.inFlight) controller.abort(new AppClosedError());
  }

  private async present(tool: CompiledTool, state: CallState, value: unknown): Promise<CallToolResult> {
    const ref = tool.descriptor.presenter;
    const outputSchema = tool.outputSchema;
    if (!ref) return shapeValue(value, outputSchema);
    const presenter: Presenter = typeof ref === 'function' ? ((state.container ?? this.container).resolve(ref) as Presenter) : ref;
    const context: PresentationContext = {
      tool: tool.info,
      outputSchema,
      shape: (shaped, notes) => shapeValue(shaped, outputSchema, notes)
    };
    // A presenter is user code: it races the abort like everything else a call waits on.
    return raceAbort(Promise.resolve(presenter.present(value, context)), state.signal);
  }
}

/**
 * A tool that declares `requires` runs only for clients that declared those capabilities
 * (when the connection says what the client declared); otherwise the call is refused with
 * the protocol's missing-capability error (-32021).
 */
function assertCapabilities(tool: CompiledTool, declared: ClientCapabilities | undefined): void {
  const required = tool.descriptor.requires;
  if (!required || !declared) return;
  const missing = Object.keys(required).filter((key) => (declared as Record<string, unknown>)[key] === undefined);
  if (missing.length > 0) {
    throw new MissingCapabilityError(
      tool.descriptor.name,
      Object.fromEntries(missing.map((key) => [key, (required as Record<string, unknown>)[key]])) as ClientCapabilities
    );
  }
}

/** Whether a first call (no continuation yet) already carries answers to requests the handler just made. */
function answersAlreadyGiven(request: CallRequest, round: InputRound): boolean {
  if (request.requestState !== undefined || request.answersReplayed || !request.inputResponses) return false;
  const responses = request.inputResponses;
  return round.requests.some((r) => {
    const answer = ownValue(responses, r.key);
    return answer !== undefined && answer !== null;
  });
}
