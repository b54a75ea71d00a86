import type { CallToolResult } from '@modelcontextprotocol/server';
import { ConfigurationError } from '../errors';
import type { CompiledTool } from '../pipeline/compiled-member';
import type { AppTasks } from '../tasks/app-tasks';
import type { DirectCallOptions } from '../types/harness';
import type { CallEngine } from './call-engine';

/**
 * The internal seam between an app and its test harness (`src/testing/`): what the harness
 * reaches the engine through. Not part of the public API; `src/app/` imports nothing of the
 * harness, which registers itself here when the package loads.
 */
export interface AppInternals {
  readonly engine: CallEngine;
  /** A tool's compiled chain by name (the catalogs of now). */
  tool(name: string): CompiledTool | undefined;
  /** The app's tasks, when it has task-capable tools. */
  readonly tasks: AppTasks | undefined;
}

/** Calls a tool as a client would (`app.callTool`): the harness. */
export type DirectCaller = (
  internals: AppInternals,
  tool: CompiledTool,
  args: Record<string, unknown>,
  options: DirectCallOptions
) => Promise<CallToolResult>;

const seams = new WeakMap<object, AppInternals>();
let directCaller: DirectCaller | undefined;

/** Records an app's internals (the composition root does, once). */
export function exposeInternals(app: object, internals: AppInternals): void {
  seams.set(app, internals);
}

/** An app's internals (for the harness). */
export function internalsOf(app: object): AppInternals {
  const internals = seams.get(app);
  if (!internals) throw new ConfigurationError('Not an app made by FusionApp.create().');
  return internals;
}

/** The harness registers how it calls tools (src/testing/harness.ts, loaded by the package root). */
export function provideDirectCaller(caller: DirectCaller): void {
  directCaller = caller;
}

/** `app.callTool`, through the registered harness. */
export function callDirect(
  app: object,
  tool: CompiledTool,
  args: Record<string, unknown>,
  options: DirectCallOptions
): Promise<CallToolResult> {
  if (!directCaller) {
    return Promise.reject(
      new ConfigurationError("app.callTool needs the test harness: import '@mcpfusion/core' (or '@mcpfusion/core/testing') first.")
    );
  }
  return directCaller(internalsOf(app), tool, args, options);
}
