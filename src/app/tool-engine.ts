import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { DependencyContainer } from 'tsyringe';
import { AppClosedError, CancelledError, TimeoutError, UnknownToolError } from '../errors';
import type { RequestExtra } from '../pipeline/call-context';
import type { CallState } from '../pipeline/call-state';
import type { CompiledTool } from '../pipeline/compiled-tool';
import { ProgressChannel, type ProgressSend } from '../pipeline/progress';
import { errorResult, shapeValue } from '../presenters/default-shaping';
import type { PresentationContext, Presenter } from '../presenters/presenter';

/** One tool call as the engine receives it, from a transport or from the test harness. */
export interface CallRequest {
  readonly name: string;
  readonly arguments?: Readonly<Record<string, unknown>>;
  /** The request's own signal (client cancellation, disconnect). */
  readonly signal?: AbortSignal;
  readonly requestId?: string | number;
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly authInfo?: RequestExtra['authInfo'];
  readonly httpRequest?: Request;
  readonly sessionId?: string;
  /** Present only when the call carried a progress token and there is a channel for it. */
  readonly sendProgress?: ProgressSend;
}

const EMPTY_ARGS: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * Runs calls through the compiled chains and presents their results. Owns the
 * per-call AbortController (request signal, per-tool timeout, app shutdown all end it).
 */
export class ToolEngine {
  private readonly tools: ReadonlyMap<string, CompiledTool>;
  private readonly inFlight = new Set<AbortController>();
  private closed = false;
  /** The `tools/list` entries, built once. */
  readonly listing: readonly Tool[];

  constructor(
    tools: readonly CompiledTool[],
    private readonly container: DependencyContainer
  ) {
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
   * Runs one call and returns its shaped result. Throws UnknownToolError for an unknown
   * name (a protocol error, not a tool result); every other failure is an `isError` result.
   */
  async call(request: CallRequest): Promise<CallToolResult> {
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
    const state: CallState = {
      tool,
      signal: controller.signal,
      extra: {
        signal: controller.signal,
        toolName: request.name,
        arguments: request.arguments ?? EMPTY_ARGS,
        requestId: request.requestId,
        meta: request.meta,
        authInfo: request.authInfo,
        httpRequest: request.httpRequest,
        sessionId: request.sessionId
      },
      progress,
      ctx: undefined,
      container: undefined,
      input: undefined
    };
    try {
      const value = await tool.run(state);
      const result = await this.present(tool, state, value);
      await progress?.flush();
      return result;
    } catch (error) {
      // A cancelled call gets no response, and nothing it produced afterwards leaks out.
      if (upstream?.aborted) progress?.discard();
      else await progress?.flush();
      return errorResult(error);
    } finally {
      if (timer) clearTimeout(timer);
      upstream?.removeEventListener('abort', onUpstreamAbort);
      this.inFlight.delete(controller);
    }
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
    return presenter.present(value, context);
  }
}
