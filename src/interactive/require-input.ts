import type { CreateMessageRequestParams } from '@modelcontextprotocol/server';
import type { Fields } from './ask';
import type { FormSchema } from './answer-validator';
import { isPrototypeKey } from '../wire/own-properties';

/** The brand of an {@link InputRound} (a registered symbol, so two copies of the framework agree). */
const INPUT_ROUND = Symbol.for('mcpfusion:input-round');

import type { InputKind } from '../types/core';

/** One embedded request for input. */
export interface InputRequest {
  /** What is asked: a form, a URL visit, a sampling request or a roots listing. */
  readonly kind: InputKind;
  /** The key the client answers under (`inputRequests` / `inputResponses`). */
  readonly key: string;
  /** The text shown to the user (forms and URL requests). */
  readonly message?: string;
  /** Form requests: the fields' schema. */
  readonly schema?: FormSchema;
  /** URL requests: the page to visit. */
  readonly url?: string;
  /** Sampling requests: the `sampling/createMessage` params. */
  readonly sampling?: CreateMessageRequestParams;
  /** What a declined or cancelled form or URL request does (see {@link RequireInputOptions.onDecline}). */
  readonly onDecline?: string;
  /** Set when a request is asked again (for example after an invalid answer): shown before the message. */
  readonly note?: string;
}

/** What an `@Interactive()` handler returns to ask: one or more requests, answered in one round. */
export interface InputRound {
  /** The brand `isInputRound` looks for. */
  readonly [INPUT_ROUND]: true;
  /** The requests of the round, each under its own key. */
  readonly requests: readonly InputRequest[];
  /** The continuation payload, read back with `readRequestState()`. */
  readonly state?: unknown;
}

/** Options of a request for input. */
export interface RequireInputOptions {
  /** The key the client answers under. Defaults: `input` (form), `url`, `sampling`, `roots`. */
  key?: string;
  /**
   * Continuation payload: state that must survive the round trip, read back with
   * `readRequestState()`. It travels signed (HMAC), not encrypted: keep secrets out.
   */
  state?: unknown;
  /**
   * What a declined or cancelled form or URL request does. A string (the default is a
   * generic message) ends the call with that text and the handler is not entered again;
   * `'handler'` re-enters the handler, where `inputStatus(name)` tells declined from cancelled.
   */
  onDecline?: string | 'handler';
}

/** Whether a handler's return value is a request for input. */
export function isInputRound(value: unknown): value is InputRound {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[INPUT_ROUND] === true;
}

/** Builds a round (internal: handlers use {@link requireInput}). */
export function createInputRound(requests: readonly InputRequest[], state?: unknown): InputRound {
  const keys = new Set<string>();
  for (const request of requests) {
    if (isPrototypeKey(request.key) || request.key === '')
      throw new TypeError(`"${request.key}" cannot be the key of a request for input: choose another key.`);
    if (keys.has(request.key)) throw new TypeError(`Two requests for input use the key "${request.key}": give each its own key.`);
    keys.add(request.key);
  }
  return { [INPUT_ROUND]: true, requests, ...(state !== undefined ? { state } : {}) };
}

function formSchema(fields: Fields): FormSchema {
  const properties: FormSchema['properties'] = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    if (isPrototypeKey(name)) throw new TypeError(`"${name}" cannot be the name of a field: choose another name.`);
    const { schema, required: isRequired } = field.toSchema();
    properties[name] = schema;
    if (isRequired) required.push(name);
  }
  return { type: 'object', properties, required };
}

function single(request: InputRequest, options: RequireInputOptions): InputRound {
  return createInputRound([options.onDecline !== undefined ? { ...request, onDecline: options.onDecline } : request], options.state);
}

/**
 * Asks the user (or the client) for input mid-call. Return one of these from an
 * `@Interactive()` tool or prompt; the framework delivers it (Multi Round-Trip Requests on
 * 2026-07-28 connections, live requests on 2025-era persistent ones) and re-enters the
 * handler with the answers, which `readInput(name)` returns.
 *
 * @example
 * ```ts
 * if (readInput<boolean>('confirm') === undefined)
 *   return requireInput.elicit(`Refund $${amount} to ${customer}?`, { confirm: ask.boolean('Approve the refund') }, { onDecline: 'Refund cancelled' });
 * ```
 */
export const requireInput = {
  /** A form: the user fills in `fields`; `readInput(field)` returns each answer. */
  elicit(message: string, fields: Fields, options: RequireInputOptions = {}): InputRound {
    if (Object.keys(fields).length === 0) throw new TypeError('requireInput.elicit needs at least one field.');
    return single({ kind: 'form', key: options.key ?? 'input', message, schema: formSchema(fields) }, options);
  },
  /**
   * An out-of-band visit to `url` (an OAuth consent screen, a payment page). On re-entry
   * `readInput(key)` is `true` once the client says the visit was accepted.
   */
  url(message: string, url: string, options: RequireInputOptions = {}): InputRound {
    const parsed = new URL(url); // throws TypeError on a malformed URL, before anything is sent
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
      throw new TypeError(`requireInput.url needs an http(s) URL (got ${parsed.protocol}).`);
    return single({ kind: 'url', key: options.key ?? 'url', message, url: parsed.toString() }, options);
  },
  /** A sampling request (`sampling/createMessage`; deprecated in 2026-07-28); `readInput(key)` returns the client's result. */
  sample(params: CreateMessageRequestParams, options: Omit<RequireInputOptions, 'onDecline'> = {}): InputRound {
    return single({ kind: 'sampling', key: options.key ?? 'sampling', sampling: params }, options);
  },
  /** A roots listing (`roots/list`; deprecated in 2026-07-28); `readInput(key)` returns the roots. */
  roots(options: Omit<RequireInputOptions, 'onDecline'> = {}): InputRound {
    return single({ kind: 'roots', key: options.key ?? 'roots' }, options);
  },
  /** Several requests answered in one round (each with its own key). */
  all(rounds: readonly InputRound[], options: { state?: unknown } = {}): InputRound {
    const state = options.state ?? rounds.find((r) => r.state !== undefined)?.state;
    return createInputRound(
      rounds.flatMap((r) => r.requests),
      state
    );
  }
};
