import type { CompleteResult, Resource } from '@modelcontextprotocol/server';
import { serverSdk } from '../../wire/server-sdk';
import { NotInteractiveError, UnknownResourceError } from '../../errors';
import { isInputRound } from '../../interactive/require-input';
import type { JsonSchema } from '../../types/core';
import { toPromptResult, toResourceContents } from '../../presenters/surface-content';
import type { CallState } from '../call-state';
import { namedExit, type NamedStep } from './named-step';

/** The most completion values sent (the protocol's cap). */
const MAX_COMPLETIONS = 100;

/** A presentation stage: an input-required result passes, a request for input from a member that may not ask is refused. */
function presentStep(name: string, where: string, shape: (value: unknown, state: CallState) => unknown): NamedStep {
  return namedExit(name, {
    value: (state, value) => {
      if (serverSdk().isInputRequiredResult(value)) return value;
      if (isInputRound(value)) throw new NotInteractiveError(where);
      return shape(value, state);
    }
  });
}

/**
 * A resource's contents: a string is text, bytes a base64 blob, `{ contents }` passes, anything
 * else JSON under the `output` allowlist. Nothing (`undefined` or `null`) is an unknown resource
 * (-32602 with `data.uri`).
 */
export function presentResourceStep(where: string, mimeType: string | undefined, allowlist: JsonSchema | undefined): NamedStep {
  return presentStep('present', where, (value, state) => {
    if (value === undefined || value === null) throw new UnknownResourceError(state.subject);
    return toResourceContents(state.subject, value, mimeType, allowlist);
  });
}

/** A prompt's messages: a string is one user message, an array the messages, `{ messages }` passes. */
export function presentPromptStep(where: string, description: string | undefined): NamedStep {
  return presentStep('present', where, (value) => toPromptResult(value, description));
}

/** The concrete resources a template's `list` method names (only what looks like one). */
export function presentResourceListStep(where: string, uriOf: (uri: string) => string = (uri) => uri): NamedStep {
  return presentStep('present', where, (value) =>
    Array.isArray(value)
      ? (value.filter((r) => r && typeof r === 'object' && typeof (r as Resource).uri === 'string') as Resource[]).map((r) => ({
          ...r,
          uri: uriOf(r.uri)
        }))
      : []
  );
}

/** Completion values: strings only, at most 100, with `total` and `hasMore`. */
export function presentCompletionStep(where: string): NamedStep {
  return presentStep('present', where, (value): CompleteResult => {
    const all = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    return { completion: { values: all.slice(0, MAX_COMPLETIONS), total: all.length, hasMore: all.length > MAX_COMPLETIONS } };
  });
}
