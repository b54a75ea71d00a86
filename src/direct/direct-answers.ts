import type { InputChannel } from '../types/core';
import type { DirectCallOptions, HarnessInputAnswer, HarnessInputRequest } from '../types/harness';

export type { HarnessInputAnswer, HarnessInputRequest } from '../types/harness';

/** What a direct call can deliver: everything when it has answers, nothing (with why) otherwise. */
const ANSWERING: InputChannel = { form: true, url: true, sampling: true, roots: true };
const NOT_ANSWERING: InputChannel = {
  form: false,
  url: false,
  sampling: false,
  roots: false,
  reason: 'the test harness was given no answers (pass { answers } or { onInput })'
};

/** The input channel of a direct call: it can answer whatever is asked once it has `answers` or `onInput`. */
export function directChannel(options: DirectCallOptions): InputChannel {
  return options.onInput || options.answers ? ANSWERING : NOT_ANSWERING;
}

/**
 * Answers one round's embedded requests, by key, in order: `onInput` when given, else from the
 * `answers` map (see {@link answerFromMap}).
 */
export function answerRequests(
  options: Pick<DirectCallOptions, 'answers' | 'onInput'>
): (requests: Readonly<Record<string, unknown>>) => Promise<Record<string, HarnessInputAnswer>> {
  const { onInput, answers } = options;
  return async (requests) => {
    const out: Record<string, HarnessInputAnswer> = {};
    for (const [key, embedded] of Object.entries(requests)) {
      const view = harnessView(key, embedded as { method: string; params?: Record<string, unknown> });
      out[key] = onInput ? await onInput(view) : answerFromMap(view, answers ?? {});
    }
    return out;
  };
}

/** How an embedded request is shown to `onInput`. */
export function harnessView(key: string, embedded: { method: string; params?: Record<string, unknown> }): HarnessInputRequest {
  const params = embedded.params ?? {};
  const kind =
    embedded.method === 'sampling/createMessage'
      ? 'sampling'
      : embedded.method === 'roots/list'
        ? 'roots'
        : params.mode === 'url'
          ? 'url'
          : 'form';
  return {
    kind,
    key,
    params,
    ...(typeof params.message === 'string' ? { message: params.message } : {}),
    ...(params.requestedSchema ? { requestedSchema: params.requestedSchema as Record<string, unknown> } : {}),
    ...(typeof params.url === 'string' ? { url: params.url } : {})
  };
}

/** The answer to a request for input, from a map of answers (`DirectCallOptions.answers`). */
export function answerFromMap(request: HarnessInputRequest, answers: Record<string, unknown>): HarnessInputAnswer {
  switch (request.kind) {
    case 'url':
      return { action: answers[request.key] === false ? 'decline' : 'accept' };
    case 'sampling':
      return (answers[request.key] as Record<string, unknown> | undefined) ?? { action: 'decline' };
    case 'roots':
      return { roots: answers[request.key] ?? [] };
    case 'form': {
      const fields = Object.keys((request.requestedSchema?.properties as Record<string, unknown> | undefined) ?? {});
      const content = Object.fromEntries(fields.filter((f) => Object.hasOwn(answers, f)).map((f) => [f, answers[f]]));
      return Object.keys(content).length > 0 ? { action: 'accept', content } : { action: 'decline' };
    }
  }
}
