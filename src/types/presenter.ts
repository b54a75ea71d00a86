/** Presenters as users write them: types only (a leaf of the import graph). */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Constructor, JsonSchema, ToolInfo } from './core';

/** What a presenter gets besides the value to present. */
export interface PresentationContext {
  /** The tool whose result is presented. */
  readonly tool: ToolInfo;
  /** The tool's listed output schema (after the presenter's `outputSchema` hook). */
  readonly outputSchema: JsonSchema | undefined;
  /**
   * The default shaping: a string becomes a text block, a CallToolResult passes through,
   * an object or array becomes `structuredContent` (allowlisted by the output schema)
   * plus a JSON text block. `notes` are appended as further text blocks.
   */
  shape(value: unknown, notes?: readonly string[]): CallToolResult;
}

/**
 * Shapes what a tool returned into the result the client sees. Presenters are
 * classes resolved from the call's container (so they can inject services), or instances.
 */
export interface Presenter {
  /** Adjusts the listed output schema (for example to describe a wrapper the presenter adds). */
  outputSchema?(base: JsonSchema | undefined): JsonSchema | undefined;
  /** The result the client receives for `value`, what the handler returned (`ctx.shape(value)` is the default shaping). */
  present(value: unknown, ctx: PresentationContext): CallToolResult | Promise<CallToolResult>;
}

/** A presenter class (resolved from the container) or a presenter instance. */
export type PresenterRef = Constructor<Presenter> | Presenter;
