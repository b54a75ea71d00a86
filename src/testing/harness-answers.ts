import type { InputChannel } from '../types/core';
import type { HarnessInputAnswer, HarnessInputRequest } from '../types/harness';

export type { HarnessInputAnswer, HarnessInputRequest } from '../types/harness';

/** What the harness's calls can deliver: everything when it has answers, nothing (with why) otherwise. */
export const ANSWERING: InputChannel = { form: true, url: true, sampling: true, roots: true };
export const NOT_ANSWERING: InputChannel = {
  form: false,
  url: false,
  sampling: false,
  roots: false,
  reason: 'the test harness was given no answers (pass { answers } or { onInput })'
};

/** How the harness shows an embedded request to `onInput`. */
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

/** The harness's answer to a request for input, from a map of answers. */
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
