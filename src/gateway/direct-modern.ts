import type { Client, Tool } from '@modelcontextprotocol/client';
import { FORWARDED_RESULT } from './upstream-result';
import { UpstreamRpcError } from '../wire/raw-exchange';

/**
 * What a direct call to a 2026-07-28 upstream sends besides a 2025-era one: the per-request
 * envelope the SDK client puts in every request's `_meta` (protocol version, client info, client
 * capabilities: the same object, taken from the client once it is connected) and the headers
 * derived from the body (`Mcp-Method`, `Mcp-Name`, the envelope's version).
 */
export interface ModernLine {
  /** The SDK client's envelope, as it sends it; the call's own `_meta` keys win over it, as in the SDK. */
  readonly envelope: Readonly<Record<string, unknown>>;
  /** The negotiated revision (the `Mcp-Protocol-Version` header). */
  readonly protocolVersion: string;
}

/**
 * The 2026-07-28 line of a connected client, or undefined when the client is not modern or the
 * SDK does not hand its envelope out (its calls then go through the SDK client, as before).
 */
export function modernLineOf(client: Client): ModernLine | undefined {
  if (client.getProtocolEra() !== 'modern') return undefined;
  const protocolVersion = client.getNegotiatedProtocolVersion();
  // The SDK builds the envelope from what it negotiated (`_outboundMetaEnvelope`, not public): read once, so that it is the SDK's own.
  const build = (client as unknown as { _outboundMetaEnvelope?: () => unknown })._outboundMetaEnvelope;
  const envelope = typeof build === 'function' ? (build.call(client) as unknown) : undefined;
  if (protocolVersion === undefined || typeof envelope !== 'object' || envelope === null) return undefined;
  return { envelope: envelope as Record<string, unknown>, protocolVersion };
}

/**
 * Which tools a 2026-07-28 upstream's calls can go out directly: those listed, whose input schema
 * declares no `x-mcp-header` (the SDK client mirrors such arguments into `Mcp-Param-*` headers and
 * retries on a header mismatch: those calls stay with it), and whose name goes into `Mcp-Name` as
 * it is (printable ASCII; the SDK base64-encodes any other). A tool not listed yet goes through
 * the SDK client too.
 */
export class DirectTools {
  private plain = new Set<string>();

  /** Takes a fresh listing (the set is replaced: a tool gone or changed is no longer assumed plain). */
  learn(tools: readonly Tool[]): void {
    const plain = new Set<string>();
    for (const tool of tools) if (PLAIN_NAME.test(tool.name) && !declaresHeaders(tool.inputSchema)) plain.add(tool.name);
    this.plain = plain;
  }

  /** Whether a call to `name` may go out directly. */
  has(name: string): boolean {
    return this.plain.has(name);
  }
}

/** A name sent as it is in `Mcp-Name`: printable ASCII, no space at either end, not the SDK's base64 form (`=?base64?…?=`). */
const PLAIN_NAME = /^(?!=\?)[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** Whether a schema declares `x-mcp-header` anywhere (a key of that name at any depth). */
function declaresHeaders(schema: unknown): boolean {
  return JSON.stringify(schema ?? {}).includes('"x-mcp-header"');
}

/** The headers of a direct 2026-07-28 `tools/call` to `name`: the connection's, and those derived from the body. */
export function modernHeaders(base: Readonly<Record<string, string>>, line: ModernLine, name: string): Record<string, string> {
  return { ...base, 'mcp-protocol-version': line.protocolVersion, 'mcp-method': 'tools/call', 'mcp-name': name };
}

/**
 * A 2026-07-28 `tools/call` result as the SDK client decodes it (its `decodeResult`): `resultType`
 * is required; `complete` is the result without it (its shape checked as a 2025-era one is,
 * `FORWARDED_RESULT`); `input_required` is a round (with `inputRequests` or `requestState`), given
 * back whole for the rounds to answer; any other type is refused, as the SDK refuses it.
 */
export function decodeModernResult(result: unknown, method = 'tools/call'): { value: unknown } | Error {
  if (typeof result !== 'object' || result === null || Array.isArray(result))
    return new Error(`Invalid result for ${method}: not an object`);
  const raw = result as Record<string, unknown>;
  const type = raw.resultType;
  if (type === undefined)
    return new Error(
      `Invalid result for ${method}: missing required resultType — servers implementing protocol revision 2026-07-28 MUST include it`
    );
  if (type === 'input_required') {
    const requests = raw.inputRequests;
    const inputRequests = typeof requests === 'object' && requests !== null && !Array.isArray(requests) ? requests : {};
    if (Object.keys(inputRequests).length === 0 && typeof raw.requestState !== 'string')
      return new Error(`Invalid result for ${method}: input_required carries neither inputRequests nor requestState`);
    return { value: { ...raw, inputRequests } };
  }
  if (type !== 'complete') return new Error(`Unsupported result type '${String(type)}' for ${method}`);
  const lifted = { ...raw };
  delete lifted.resultType;
  const checked = FORWARDED_RESULT['~standard'].validate(lifted);
  if ('issues' in checked && checked.issues) return new Error(checked.issues[0]?.message ?? 'malformed result');
  return { value: (checked as { value: unknown }).value };
}

/** The JSON-RPC error a refused request's body carries (a 2026-07-28 upstream answers a 4xx with one), or undefined. */
export function rpcErrorIn(text: string): UpstreamRpcError | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const error = (body as { error?: { code?: unknown; message?: unknown; data?: unknown } } | null)?.error;
  if (typeof error !== 'object' || error === null || typeof error.code !== 'number' || typeof error.message !== 'string') return undefined;
  return new UpstreamRpcError(error.code, error.message, error.data);
}

/** `tools`, once the direct calls (if any) have learnt which of them go out directly. */
export function learnedBy(direct: { readonly tools: DirectTools } | undefined, tools: Tool[]): Tool[] {
  direct?.tools.learn(tools);
  return tools;
}
