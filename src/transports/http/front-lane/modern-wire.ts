import {
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  SERVER_INFO_META_KEY,
  type ClientCapabilities
} from '@modelcontextprotocol/server';
import { sdkSeamInternalError } from '../../../errors/sdk-seam-errors';
import { isPlainJsonObject } from '../../../wire/own-properties';

/**
 * The 2026-07-28 wire shapes of a `tools/call` answer, as the SDK's server seam and its
 * 2026-07-28 codec make them (`@modelcontextprotocol/server` 2.4: `Server._wrapHandler`,
 * `_invokeInputRequiredCapableHandler`, the codec's `projectCallToolResult` and `encodeResult`),
 * for the front lane, which answers without them. Each function names the step it repeats; the
 * lane's tests compare its answers with the normal path's, so a change of the SDK shows there.
 */

type Json = Record<string, unknown>;

/** Result keys of the other result families: such a result is never given an empty `content` (`TOOL_RESULT_FOREIGN_FAMILY_KEYS`). */
const FOREIGN_FAMILY_KEYS = ['task', 'inputRequests', 'requestState'];

/** The members of a tool result in the order the SDK's result schema writes them (its parse rebuilds the object: these first, then the rest as they came). */
const RESULT_ORDER = ['_meta', 'content', 'structuredContent', 'isError'];

/**
 * A complete tool result as the SDK passes it on: `structuredContent` that is not an object gets
 * its JSON as a text block when there is none (`appendTextFallbackForNonObject`), a result
 * without content gets an empty one (`normalizeContentlessToolResult`), and its members are in
 * the order the SDK's check of it (a zod parse of the spec's result schema) leaves them. Not
 * repeated: that check itself, and the order it gives nested objects (a content block's members);
 * the app builds its blocks in that order, and a gateway's come from an SDK client's parse.
 */
export function projected(result: Json): Json {
  let shaped = result;
  const structured = shaped.structuredContent;
  const content = shaped.content as { type?: unknown }[] | undefined;
  if (
    structured !== undefined &&
    (typeof structured !== 'object' || structured === null || Array.isArray(structured)) &&
    !(content?.some((block) => block.type === 'text') ?? false)
  ) {
    shaped = { ...shaped, content: [...(content ?? []), { type: 'text', text: JSON.stringify(structured) }] };
  }
  if (shaped.content === undefined && !FOREIGN_FAMILY_KEYS.some((key) => key in shaped)) shaped = { ...shaped, content: [] };
  const ordered: Json = {};
  for (const key of RESULT_ORDER) if (shaped[key] !== undefined) ordered[key] = shaped[key];
  for (const key of Object.keys(shaped)) if (!(key in ordered)) ordered[key] = shaped[key];
  return ordered;
}

/**
 * A result as the 2026-07-28 codec encodes it (`encodeResult` for `tools/call`): `resultType`
 * `complete` unless the result names one, then the server's identity in `_meta` unless the
 * result's `_meta` names one already (or is not an object).
 */
export function encodedResult(result: Json, serverInfo: unknown): Json {
  const typed = result.resultType === undefined ? { ...result, resultType: 'complete' } : result;
  if (serverInfo === undefined) return typed;
  const meta = typed._meta;
  if (meta === undefined) return { ...typed, _meta: { [SERVER_INFO_META_KEY]: serverInfo } };
  if (!isPlainJsonObject(meta) || (meta as Json)[SERVER_INFO_META_KEY] !== undefined) return typed;
  return { ...typed, _meta: { ...(meta as Json), [SERVER_INFO_META_KEY]: serverInfo } };
}

/**
 * What the SDK's seam refuses of an `input_required` result toward a 2026-07-28 request, as it
 * refuses it: neither `inputRequests` nor `requestState` (-32603); an entry that is not an
 * embedded elicitation, sampling or roots request (-32603); one the request's declared client
 * capabilities do not cover (-32021, with the missing capabilities). Undefined: it goes out.
 */
export function inputRequiredRefusal(result: Json, declared: ClientCapabilities): Error | undefined {
  const inputRequests = result.inputRequests as Json | null | undefined;
  const hasInputRequests = inputRequests != null && Object.keys(inputRequests).length > 0;
  if (!hasInputRequests && typeof result.requestState !== 'string')
    return sdkSeamInternalError(
      'Handler for tools/call returned an input-required result with neither inputRequests nor requestState (every InputRequiredResult must include at least one of the two)'
    );
  if (!hasInputRequests) return undefined;
  for (const [key, entry] of Object.entries(inputRequests)) {
    if (entry === null || typeof entry !== 'object' || typeof (entry as Json).method !== 'string')
      return sdkSeamInternalError(
        `Handler for tools/call returned an invalid input request '${key}': each inputRequests entry must be an embedded elicitation/create, sampling/createMessage, or roots/list request`
      );
    const method = (entry as Json).method as string;
    const required = requiredFor(method, (entry as Json).params as Json | undefined);
    if (required === undefined)
      return sdkSeamInternalError(
        `Handler for tools/call returned an input request '${key}' of kind '${method}', which is not an embedded request the 2026-07-28 revision defines`
      );
    const missing = missingOf(required, declared as Json);
    if (missing !== undefined)
      return new MissingRequiredClientCapabilityError(
        { requiredCapabilities: missing },
        `Cannot request input '${key}' (${method}): the request's client capabilities do not declare the required capability`
      );
  }
  return undefined;
}

/** The client capabilities an embedded input request needs (`requiredClientCapabilitiesForInputRequest`). */
function requiredFor(method: string, params: Json | undefined): Json | undefined {
  switch (method) {
    case 'elicitation/create':
      return params?.mode === 'url' ? { elicitation: { url: {} } } : { elicitation: { form: {} } };
    case 'sampling/createMessage':
      return params !== undefined && (params.tools !== undefined || params.toolChoice !== undefined)
        ? { sampling: { tools: {} } }
        : { sampling: {} };
    case 'roots/list':
      return { roots: {} };
    default:
      return undefined;
  }
}

/** The required capabilities the declared ones lack (`missingClientCapabilities`: a bare `elicitation: {}` covers form). */
function missingOf(required: Json, declared: Json | undefined): ClientCapabilities | undefined {
  const missing: Json = {};
  for (const [capability, requirement] of Object.entries(required)) {
    const declaredValue = declared?.[capability];
    if (declaredValue === undefined) {
      missing[capability] = requirement;
      continue;
    }
    if (isPlainJsonObject(requirement) && isPlainJsonObject(declaredValue)) {
      const members: Json = {};
      for (const [member, memberRequirement] of Object.entries(requirement as Json)) {
        const implied =
          capability === 'elicitation' &&
          member === 'form' &&
          (declaredValue as Json).form === undefined &&
          (declaredValue as Json).url === undefined;
        if (memberRequirement !== undefined && (declaredValue as Json)[member] === undefined && !implied)
          members[member] = memberRequirement;
      }
      if (Object.keys(members).length > 0) missing[capability] = members;
    }
  }
  return Object.keys(missing).length > 0 ? (missing as ClientCapabilities) : undefined;
}

/** A retry's `inputResponses` as the SDK hands them to a handler: the entries that are answers (objects that are not requests or responses). */
export function partitionInputResponses(inputResponses: Json | undefined): Json {
  const accepted: Json = {};
  if (!isPlainJsonObject(inputResponses)) return accepted;
  for (const [key, entry] of Object.entries(inputResponses as Json)) {
    if (!isPlainJsonObject(entry) || 'method' in (entry as object) || 'result' in (entry as object)) continue;
    accepted[key] = entry;
  }
  return accepted;
}

/** A thrown error as the SDK's seam passes it on for a 2026-07-28 request: a URL elicitation signalled by throwing (-32042, the 2025 idiom) is an internal error there. */
export function modernError(error: { code?: unknown; message?: string; data?: unknown }): {
  code?: unknown;
  message?: string;
  data?: unknown;
} {
  if (!(error instanceof ProtocolError) || error.code !== ProtocolErrorCode.UrlElicitationRequired) return error;
  return sdkSeamInternalError(
    'URL elicitation cannot be signalled by throwing UrlElicitationRequiredError on protocol revision 2026-07-28: return inputRequired({ inputRequests: { …: inputRequired.elicitUrl(...) } }) from the handler instead. The urlElicitationRequired error (-32042) of earlier revisions is not available on this revision.'
  );
}
