/**
 * What the gateway keeps of one upstream, at most. An upstream is another party's code: each
 * bound is enforced where the bytes arrive, and breaking it ends with a clear error naming the
 * upstream (docs/gateway-trust.md lists them). They are sized far above what a well-behaved
 * server sends (the largest public servers list well under 200 tools of a few KB each).
 */
export const UPSTREAM_LIMITS = Object.freeze({
  /** One JSON-RPC message from the upstream (a stdio line; an HTTP JSON body or one SSE event): larger closes the connection. */
  maxMessageBytes: 8 * 1024 * 1024,
  /** A whole tool listing (all pages, as JSON): larger, and the connection is broken off (in a set, the upstream is down and retried with backoff). */
  maxListingBytes: 16 * 1024 * 1024,
  /** Tools in one upstream's listing. */
  maxTools: 2000,
  /** Pages of one listing (a cursor that never ends; the SDK's own cap is set to it too). */
  maxListingPages: 64,
  /** One tool's upstream name, in characters (the protocol's tool-name limit). */
  maxToolNameChars: 128,
  /** One tool's description, in characters: a longer one leaves the tool out (logged). */
  maxDescriptionChars: 16 * 1024,
  /** One tool's title, in characters. */
  maxTitleChars: 256,
  /** One tool as JSON (schemas, annotations, icons and all). */
  maxToolBytes: 256 * 1024,
  /** Progress and log events queued on one call that its front round has not read yet; beyond, progress is coalesced and logs dropped. */
  maxQueuedEvents: 256,
  /** Requests the upstream may make that no call made (sampling, elicitation, roots outside a call), in a burst; each is refused. */
  unrequestedBurst: 50,
  /** …refilled at this many per second; an upstream that runs past the burst is disconnected as hostile. */
  unrequestedPerSecond: 5,
  /** Diagnostic lines logged per connection for one kind of noise (garbage, unknown ids, refusals) before they are only counted. */
  loggedNoise: 5
});
