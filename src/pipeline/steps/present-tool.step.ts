import type { CallToolResult } from '@modelcontextprotocol/server';
import { serverSdk } from '../../wire/server-sdk';
import { NotInteractiveError, OutputMismatchError, PresentationError } from '../../errors';
import { Replayed } from '../../interactive/continuation';
import { isInputRound } from '../../interactive/require-input';
import { shapeValue } from '../../presenters/default-shaping';
import { isCallToolResult } from '../../presenters/presenter';
import type { PresentationContext, Presenter, PresenterRef } from '../../types/presenter';
import type { JsonSchema, ToolInfo } from '../../types/core';
import { derivedSchemaCheck, type SchemaCheck } from '../../schema/schema-check';
import { namedExit, type NamedStep } from './named-step';

/**
 * Shapes what a tool returned into its `CallToolResult`: the presenter (a class resolved from
 * the call's container, or an instance) or the default shaping, under the tool's output
 * allowlist. It sits outside the queue and the lock, so a slow presenter holds neither. The
 * outcome is decided before it runs (the handler returned), so no abort reaches it: a presenter
 * that awaits is bounded by its own limit (`presenterTimeoutMs`), and one that overruns it is a
 * {@link PresentationError} (an `isError` result), never a cancellation. An input-required
 * result, and a task's `CreateTaskResult`, pass through.
 *
 * A tool with a listed `outputSchema` is held to it the way clients hold it (the SDK's clients
 * reject a non-error result without conforming `structuredContent`): a result that does not
 * conform becomes an {@link OutputMismatchError}, which the boundary answers as an `isError`
 * result naming the tool, its output and what was returned. `outputName` is the declared
 * output as written (`InvoiceView`, `[InvoiceView]`).
 */
export function presentToolStep(
  tool: ToolInfo,
  outputSchema: JsonSchema | undefined,
  ref: PresenterRef | undefined,
  outputName: string | undefined,
  presenterTimeoutMs: number
): NamedStep {
  const context: PresentationContext = { tool, outputSchema, shape: (shaped, notes) => shapeValue(shaped, outputSchema, notes) };
  const conform = outputSchema ? outputGuard(tool.name, outputSchema, outputName ?? 'the schema its presenter lists') : undefined;
  // An exit hook: applied in the reaction that finishes the call where nothing wraps it (see `ExitHook`).
  return namedExit('present', {
    value: (state, value) => {
      if (serverSdk().isInputRequiredResult(value)) return value;
      // A task another server created (a gateway's upstream task, adopted by the tasks extension): its `CreateTaskResult` as it is.
      if (isCreatedTask(value)) return value as CallToolResult;
      // A re-issued round's recorded outcome was presented once already.
      if (value instanceof Replayed) return value.outcome as CallToolResult;
      if (isInputRound(value)) throw new NotInteractiveError(`Tool ${tool.name} (${tool.className}.${tool.methodName})`);
      if (!ref) {
        const shaped = shapeValue(value, outputSchema);
        return conform ? conform(shaped, value) : shaped;
      }
      const presenter: Presenter = typeof ref === 'function' ? (state.resolver().resolve(ref) as Presenter) : ref;
      const out = presenter.present(value, context);
      const presented = isThenable(out) ? within(out, tool.name, presenterTimeoutMs) : out;
      if (!conform) return presented;
      return isThenable(presented) ? presented.then((shaped) => conform(shaped, value)) : conform(presented, value);
    }
  });
}

function isCreatedTask(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { resultType?: unknown }).resultType === 'task';
}

/** Settles with `presenting`, or fails with a PresentationError after `timeoutMs`; the timer is cleared either way. */
function within(presenting: PromiseLike<CallToolResult>, toolName: string, timeoutMs: number): Promise<CallToolResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const overrun = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PresentationError(toolName, timeoutMs)), timeoutMs);
  });
  return Promise.race([presenting, overrun]).finally(() => clearTimeout(timer));
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** The check of a shaped result against the listed output schema, compiled on the first result; an error result is exempt. */
function outputGuard(
  toolName: string,
  schema: JsonSchema,
  outputName: string
): (shaped: CallToolResult, returned: unknown) => CallToolResult {
  const check: SchemaCheck = derivedSchemaCheck(schema, `tool ${toolName}`, 'output');
  return (shaped, returned) => {
    if (shaped.isError === true) return shaped;
    if (shaped.structuredContent === undefined) throw new OutputMismatchError(toolName, outputName, describe(returned));
    const violations = check(shaped.structuredContent);
    if (violations.length === 0) return shaped;
    const problems = violations.map((v) => (v.path ? `${v.path}: ${v.message}` : v.message)).join('; ');
    throw new OutputMismatchError(toolName, outputName, `${describe(returned)} that does not match it (${problems})`);
  };
}

/** What a handler returned, in a few words: enough to find the return statement, never a whole value. */
function describe(value: unknown): string {
  if (value === undefined || value === null) return `nothing (${String(value)})`;
  if (typeof value === 'string') return `a string (${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)})`;
  if (typeof value !== 'object') return `a ${typeof value} (${String(value)})`;
  if (isCallToolResult(value)) return 'a CallToolResult without structuredContent';
  return Array.isArray(value) ? 'an array' : 'an object';
}
