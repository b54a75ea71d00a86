import { isJsonContentType } from '@modelcontextprotocol/server';
import type { BodyReader, ReadBody } from '../node-entry';
import type { EntryRequest } from '../entry-request';
import {
  acceptRefusal,
  batchRefusal,
  echoRefusal,
  invalidJson,
  payloadTooLarge,
  prototypeArgumentRefusal,
  stripPrototypeKeys,
  unreadableBody,
  unsupportedMediaType
} from '../protocol-refusals';

/**
 * The body guard: reads a POST once, the way both eras require, and refuses what no server
 * should see. In order: an `Accept` that admits no answer (406), a content type that is not
 * JSON (415), a body that cannot be read (400, -32700) or is over `MAX_BODY_BYTES` (413), a
 * body that is not JSON (400, -32700), `__proto__` in a call's arguments (400, -32602), an id,
 * progress token or `_meta` over the bounds of what the server echoes (400, -32602), and a
 * batch on a request without a session whose `MCP-Protocol-Version` forbids batches (400,
 * -32600; a session's batches are judged by its negotiated version, in the session registry).
 * Keys that could reach a prototype are dropped from `inputResponses` before the SDK copies
 * that map. What passes is the parsed body, which both legs get (the SDK reads it no more).
 */
export async function guardBody(request: EntryRequest, readBody: BodyReader): Promise<Response | { body: unknown }> {
  const notAcceptable = acceptRefusal(request);
  if (notAcceptable) return notAcceptable;
  if (!isJsonContentType(request.headers.get('content-type'))) return unsupportedMediaType();
  let read: ReadBody;
  try {
    read = await readBody();
  } catch {
    return unreadableBody();
  }
  if (read.tooLarge) return payloadTooLarge();
  let body: unknown;
  try {
    body = JSON.parse(read.text);
  } catch {
    return invalidJson();
  }
  const hostile = prototypeArgumentRefusal(body) ?? echoRefusal(body, read.text.length * 3); // at most 3 UTF-8 bytes per UTF-16 unit;
  if (hostile) return hostile;
  stripPrototypeKeys(body);
  // Without a session, the version header is all that says the era of a batch.
  if (!request.headers.get('mcp-session-id')) {
    const batch = batchRefusal(body, request.headers.get('mcp-protocol-version') ?? undefined);
    if (batch) return batch;
  }
  return { body };
}
