import type { Fields } from './ask';
import type { FormSchema } from './answer-validator';

const INPUT_REQUEST = Symbol.for('mcpfusion:input-request');

/** Options of a request for input. */
export interface RequireInputOptions {
  /**
   * Continuation payload: state that must survive the round trip, read back with
   * `readRequestState()`. It travels signed (HMAC), not encrypted: keep secrets out.
   */
  state?: unknown;
  /**
   * What a declined or cancelled request does. A string (the default is a generic
   * message) ends the call with that text and the handler is not entered again;
   * `'handler'` re-enters the handler, where `inputStatus(name)` tells declined from
   * cancelled.
   */
  onDecline?: string | 'handler';
}

/** A form or URL request, returned from an `@Interactive()` handler to ask the user. */
export interface InputRequest {
  readonly [INPUT_REQUEST]: true;
  readonly mode: 'form' | 'url';
  readonly message: string;
  /** Form requests: the fields' schema. */
  readonly schema?: FormSchema;
  /** URL requests: the page to visit, and the name `readInput` answers under. */
  readonly url?: string;
  readonly name?: string;
  readonly options: RequireInputOptions;
  /** Set when a request is asked again (for example after an invalid answer): shown before the message. */
  readonly note?: string;
}

/** Builds a request for input (internal: handlers use {@link requireInput}). */
export function createInputRequest(spec: Omit<InputRequest, typeof INPUT_REQUEST>): InputRequest {
  return { [INPUT_REQUEST]: true, ...spec };
}

/** Whether a handler's return value is a request for input. */
export function isInputRequest(value: unknown): value is InputRequest {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[INPUT_REQUEST] === true;
}

function formSchema(fields: Fields): FormSchema {
  const properties: FormSchema['properties'] = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    const { schema, required: isRequired } = field.toSchema();
    properties[name] = schema;
    if (isRequired) required.push(name);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/**
 * Asks the user for input mid-call. Return one of these from an `@Interactive()` tool; the
 * framework delivers it (Multi Round-Trip Requests on 2026-07-28 connections, live
 * elicitation on 2025-era persistent ones) and re-enters the handler with the answers,
 * which `readInput(name)` returns.
 *
 * @example
 * ```ts
 * const confirm = readInput<boolean>('confirm');
 * if (confirm === undefined)
 *   return requireInput.elicit(`Refund $${amount} to ${customer}?`, { confirm: ask.boolean('Approve the refund') }, { onDecline: 'Refund cancelled' });
 * ```
 */
export const requireInput = {
  /** A form: the user fills in `fields`. */
  elicit(message: string, fields: Fields, options: RequireInputOptions = {}): InputRequest {
    if (Object.keys(fields).length === 0) throw new TypeError('requireInput.elicit needs at least one field.');
    return createInputRequest({ mode: 'form', message, schema: formSchema(fields), options });
  },
  /**
   * An out-of-band visit to `url` (an OAuth consent screen, a payment page). On
   * re-entry `readInput(name)` is `true` once the client says the visit was accepted.
   */
  url(message: string, url: string, options: RequireInputOptions & { name?: string } = {}): InputRequest {
    const parsed = new URL(url); // throws TypeError on a malformed URL, before anything is sent
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
      throw new TypeError(`requireInput.url needs an http(s) URL (got ${parsed.protocol}).`);
    return createInputRequest({ mode: 'url', message, url: parsed.toString(), name: options.name ?? 'url', options });
  }
};
