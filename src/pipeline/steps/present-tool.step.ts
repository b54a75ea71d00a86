import { isInputRequiredResult, type CallToolResult } from '@modelcontextprotocol/server';
import { NotInteractiveError } from '../../errors';
import { Replayed } from '../../interactive/continuation';
import { isInputRound } from '../../interactive/require-input';
import { shapeValue } from '../../presenters/default-shaping';
import type { PresentationContext, Presenter, PresenterRef } from '../../presenters/presenter';
import type { JsonSchema } from '../../schema/json-schema';
import type { ToolInfo } from '../../types/core';
import { named, type NamedStep } from './named-step';

/**
 * Shapes what a tool returned into its `CallToolResult`: the presenter (a class resolved from
 * the call's container, or an instance) or the default shaping, under the tool's output
 * allowlist. It sits outside the queue and the lock, so a slow presenter holds neither; it
 * races the abort like everything a call waits on. An input-required result passes through.
 */
export function presentToolStep(tool: ToolInfo, outputSchema: JsonSchema | undefined, ref: PresenterRef | undefined): NamedStep {
  const context: PresentationContext = { tool, outputSchema, shape: (shaped, notes) => shapeValue(shaped, outputSchema, notes) };
  // Chained rather than awaited: a call waiting in the queue keeps one suspended frame fewer.
  return named('present', (state, next) =>
    next().then((value) => {
      if (isInputRequiredResult(value)) return value;
      // A re-issued round's recorded outcome was presented once already.
      if (value instanceof Replayed) return value.outcome as CallToolResult;
      if (isInputRound(value)) throw new NotInteractiveError(`Tool ${tool.name} (${tool.className}.${tool.methodName})`);
      if (!ref) return shapeValue(value, outputSchema);
      const presenter: Presenter = typeof ref === 'function' ? (state.scope.resolver().resolve(ref) as Presenter) : ref;
      return state.aborter.race(Promise.resolve(presenter.present(value, context))) as Promise<CallToolResult>;
    })
  );
}
