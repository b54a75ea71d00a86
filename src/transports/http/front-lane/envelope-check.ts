import {
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  classifyInboundRequest
} from '@modelcontextprotocol/server';

type Json = Record<string, unknown>;

/** The one revision the front lane of 2026-07-28 serves: what the SDK's modern leg serves today. */
export const REVISION = '2026-07-28';

/** The `_meta` keys the SDK lifts out of a request into its envelope (`RESERVED_ENVELOPE_META_KEYS`). */
export const ENVELOPE_KEYS: readonly string[] = [
  PROTOCOL_VERSION_META_KEY,
  'io.modelcontextprotocol/clientInfo',
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY
];

/** How many envelopes are remembered (a client sends the same one with every request). */
const ENVELOPES_KEPT = 256;

/** The longest envelope remembered (in characters of JSON): a larger one is checked every time, so the memory stays bounded. */
const ENVELOPE_KEPT_CHARS = 4096;

/**
 * Which 2026-07-28 envelopes the SDK takes, for the front lane, which decides before anything
 * runs whether the normal path would refuse a request's envelope (its -32602 naming the problem).
 * The SDK's schema check costs a zod parse per request; a client sends the same envelope every
 * time, so the answer is remembered per lane.
 */
export class EnvelopeCheck {
  /** Whether an envelope is valid, by its JSON. */
  private readonly envelopes = new Map<string, boolean>();

  /**
   * Whether a request's envelope is one the SDK takes (its classifier, `classifyInboundRequest`,
   * checks it against the spec's schema): asked of the SDK once per distinct envelope, with a
   * request that carries only it, and remembered by its JSON (a few hundred of up to 4 KiB, the oldest dropped).
   */
  valid(meta: Json): boolean {
    const envelope: Json = {};
    for (const key of ENVELOPE_KEYS) if (key in meta) envelope[key] = meta[key];
    const text = JSON.stringify(envelope);
    let valid = this.envelopes.get(text);
    if (valid === undefined) {
      const route = classifyInboundRequest({
        httpMethod: 'POST',
        protocolVersionHeader: REVISION,
        mcpMethodHeader: 'tools/call',
        body: { jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: 'envelope', _meta: envelope } }
      });
      valid = route.kind === 'modern' && route.classification.revision === REVISION;
      if (text.length > ENVELOPE_KEPT_CHARS) return valid;
      if (this.envelopes.size >= ENVELOPES_KEPT) this.envelopes.delete(this.envelopes.keys().next().value!);
      this.envelopes.set(text, valid);
    }
    return valid;
  }
}
