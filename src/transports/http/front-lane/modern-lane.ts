import {
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  isInputRequiredResult,
  type ClientCapabilities
} from '@modelcontextprotocol/server';
import type { ServedSurfaces } from '../../server-factory';
import { channelOf } from '../../server-factory';
import type { CallRequest, LogSend, ProgressSend } from '../../../types/request';
import { isPlainJsonObject } from '../../../wire/own-properties';
import { isCongested, remoteAddressOf } from '../connection-facts';
import type { EntryRequest } from '../entry-request';
import { progressParams } from '../../progress-sender';
import type { LaneCounts } from './session-lane';
import { ENVELOPE_KEYS, EnvelopeCheck, REVISION } from './envelope-check';
import { ModernAnswer } from './modern-answer';
import { encodedResult, inputRequiredRefusal, modernError, partitionInputResponses, projected } from './modern-wire';
import { thrownAsWireError } from '../../../errors/sdk-seam-errors';
import { checkedToolResult } from './result-check';

type Json = Record<string, unknown>;

/** The params of a `tools/call` the lane takes: nothing else (a `task`, a field it does not know) goes the normal way. */
const CALL_PARAMS: ReadonlySet<string> = new Set(['name', 'arguments', '_meta', 'inputResponses', 'requestState']);

/** The members of a JSON-RPC request. */
const REQUEST_MEMBERS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);

/** Log levels by severity, as the SDK orders them (`LoggingLevelSchema`). */
const SEVERITY: ReadonlyMap<string, number> = new Map(
  ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'].map((level, index) => [level, index])
);

/** What a dropped notification resolves to. */
const DROPPED: Promise<void> = Promise.resolve();

/**
 * The front fast lane of 2026-07-28 (`frontLane: true`): a stateless `tools/call` (its `_meta`
 * envelope, its `Mcp-Method`/`Mcp-Name` headers) is served here, straight from the parsed body,
 * through the app's own call path (`app.callTool`), without the SDK's per-request work: no SDK
 * server built and connected for the request, no per-request transport, no zod parse of the
 * message, its params and its result, no request context. The answer is what the SDK's modern
 * leg answers (`modern-answer.ts`, `modern-wire.ts`): one JSON body when the response is the
 * first message, else an SSE stream of the call's progress and log messages, then its response;
 * `resultType`, the server's identity in `_meta`, the projection of `structuredContent`, the
 * error codes and messages as the SDK encodes a thrown error, an `input_required` result
 * (multi round-trip requests: no live channel needed) checked against the capabilities the
 * request declared (-32021, status 400, as the SDK answers it), a retry's `inputResponses` and
 * `requestState` handed to the call as the SDK hands them.
 *
 * Decided per request, before anything runs; anything it does not take goes the normal way
 * (`serve` answers undefined): a body the SDK would refuse or classify otherwise, an envelope its
 * own classifier (`classifyInboundRequest`) refuses, a missing or different
 * `MCP-Protocol-Version`, `Mcp-Method` or `Mcp-Name` header (an encoded one included), a session
 * id header, a tool the app does not list or whose schema declares `x-mcp-header` parameters, a
 * call with a task or a client that declared the tasks extension, a caller with a token (auth),
 * an app whose telemetry records, and JSON response mode.
 *
 * Cancelling: in 2026-07-28 the client ends the HTTP request; the call's signal aborts then (with
 * the SDK's own "Connection closed" error, as the normal path aborts it) and nothing more is
 * written. A complete result is checked against the spec's result schema as the SDK's server
 * checks it (`result-check.ts`).
 */
export class ModernLane {
  /** Whether a tool's input schema declares `x-mcp-header` parameters (which the SDK checks against `Mcp-Param-*` headers), by schema. */
  private readonly headerParams = new WeakMap<object, boolean>();
  /** The server's identity, as the SDK stamps it into every result's `_meta` (what the app's servers are built with). */
  private serverInfo: { name: string; version: string } | undefined;
  /** Which envelopes the SDK takes. */
  private readonly envelopes = new EnvelopeCheck();
  /** Its calls in flight: closing the endpoint aborts them, as the SDK's modern leg closes its servers in flight. */
  private readonly running = new Set<AbortController>();

  constructor(
    private readonly surfaces: () => ServedSurfaces,
    /** The counts it adds to (shared with the 2025-era lane, where there is one: one diagnostic for the endpoint). */
    readonly counts: LaneCounts
  ) {}

  /** Serves `body` when the lane takes it; undefined: the normal path serves it. Only for a body that claims the 2026-07-28 envelope. */
  serve(request: EntryRequest, body: unknown, authInfo: unknown): Promise<Response> | undefined {
    const call = authInfo === undefined ? this.callOf(request, body) : undefined;
    if (!call) {
      this.counts.passed++;
      return undefined;
    }
    this.counts.served++;
    return this.run(request, call);
  }

  /** Aborts its calls in flight (the endpoint closes). */
  close(): void {
    for (const abort of this.running) abort.abort(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
    this.running.clear();
  }

  /** What the lane runs for a request, when it takes it at all. */
  private callOf(request: EntryRequest, body: unknown): LaneCall | undefined {
    if (!isPlainJsonObject(body)) return undefined;
    const message = body as Json;
    if (message.jsonrpc !== '2.0' || message.method !== 'tools/call') return undefined;
    // A JSON-RPC request has no other members (the SDK's schema refuses them).
    for (const key of Object.keys(message)) if (!REQUEST_MEMBERS.has(key)) return undefined;
    const id = message.id;
    if (typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id))) return undefined;
    const params = message.params;
    if (!isPlainJsonObject(params)) return undefined;
    for (const key of Object.keys(params)) if (!CALL_PARAMS.has(key)) return undefined;
    const { name, arguments: args, _meta: meta, inputResponses, requestState } = params as Json;
    if (typeof name !== 'string' || !isPlainJsonObject(meta)) return undefined;
    if (args !== undefined && !isPlainJsonObject(args)) return undefined;
    if (requestState !== undefined && typeof requestState !== 'string') return undefined;
    if (inputResponses !== undefined && !isPlainJsonObject(inputResponses)) return undefined;
    const token = (meta as Json).progressToken;
    if (token !== undefined && typeof token !== 'string' && !Number.isSafeInteger(token)) return undefined;
    // The headers the SDK's modern leg requires, as sent (an encoded Mcp-Name, or one to trim, goes the normal way).
    const headers = request.headers;
    if ((meta as Json)[PROTOCOL_VERSION_META_KEY] !== REVISION || headers.get('mcp-protocol-version') !== REVISION) return undefined;
    if (headers.get('mcp-method') !== 'tools/call' || headers.get('mcp-name') !== name || headers.has('mcp-session-id')) return undefined;
    const { app, telemetry } = this.surfaces();
    if (telemetry !== undefined && !telemetry.idle) return undefined;
    const schema = app.toolInputSchema(name);
    if (schema === undefined || this.declaresHeaderParams(schema)) return undefined;
    const capabilities = (meta as Json)[CLIENT_CAPABILITIES_META_KEY];
    if (!isPlainJsonObject(capabilities)) return undefined;
    const extensions = (capabilities as Json).extensions;
    if (extensions !== undefined && (!isPlainJsonObject(extensions) || 'io.modelcontextprotocol/tasks' in extensions)) return undefined;
    if (!this.envelopes.valid(meta as Json)) return undefined;
    return {
      id,
      name,
      args: args as Json | undefined,
      meta: meta as Json,
      token: token as string | number | undefined,
      capabilities: capabilities as ClientCapabilities,
      inputResponses: inputResponses as Json | undefined,
      hasInputResponses: 'inputResponses' in params,
      requestState: requestState as string | undefined
    };
  }

  /** Whether a tool's schema declares `x-mcp-header` parameters (worked out once per schema). */
  private declaresHeaderParams(schema: object): boolean {
    let declares = this.headerParams.get(schema);
    if (declares === undefined) this.headerParams.set(schema, (declares = JSON.stringify(schema).includes('"x-mcp-header"')));
    return declares;
  }

  /** The server's identity: the name and version the app's servers are built with (`createServerFactory`), read once. */
  private identity(): { name: string; version: string } {
    if (this.serverInfo === undefined) {
      const { name, version } = this.surfaces().identity;
      this.serverInfo = { name, version };
    }
    return this.serverInfo;
  }

  /** Runs the call through the app and answers as the SDK's modern leg does. */
  private run(request: EntryRequest, call: LaneCall): Promise<Response> {
    const { app } = this.surfaces();
    const abort = new AbortController();
    const gone = (): void => abort.abort(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
    if (request.signal.aborted) gone();
    else request.signal.addEventListener('abort', gone, { once: true });
    this.running.add(abort);
    const answer = new ModernAnswer(abort.signal);
    // The `_meta` the handler sees: the request's, without the envelope the SDK lifts out of it.
    const envelope: Json = {};
    let meta: Json | undefined = {};
    for (const [key, value] of Object.entries(call.meta)) {
      if (ENVELOPE_KEYS.includes(key)) envelope[key] = value;
      else meta[key] = value;
    }
    if (Object.keys(meta).length === 0) meta = undefined;
    const threshold = envelope[LOG_LEVEL_META_KEY];
    const token = call.token;
    const sendProgress: ProgressSend | undefined =
      token === undefined
        ? undefined
        : (progress, message, total) =>
            isCongested(request)
              ? DROPPED
              : answer.notify({
                  jsonrpc: '2.0',
                  method: 'notifications/progress',
                  params: progressParams(token, progress, total, message)
                });
    // As the SDK's `ctx.mcpReq.log` on 2026-07-28: nothing without the envelope's log level, nothing below it.
    const sendLog: LogSend = (level, data, logger) =>
      typeof threshold !== 'string' || SEVERITY.get(level)! < SEVERITY.get(threshold)!
        ? DROPPED
        : answer.notify({ jsonrpc: '2.0', method: 'notifications/message', params: { level, data, logger } });
    const served: CallRequest = {
      signal: abort.signal,
      requestId: call.id,
      ...(meta !== undefined ? { meta } : {}),
      // The web `Request` is built if something reads it (a `principalOf`, a `contextFactory`), not for every call.
      get httpRequest() {
        return request.web();
      },
      remoteAddress: remoteAddressOf(request),
      era: 'modern',
      clientCapabilities: call.capabilities,
      sendLog,
      ...(call.requestState !== undefined ? { requestState: call.requestState } : {}),
      ...(call.hasInputResponses ? { inputResponses: partitionInputResponses(call.inputResponses) } : {}),
      inputChannel: channelOf(call.capabilities, 'modern'),
      subject: call.name,
      ...(call.args !== undefined ? { arguments: call.args } : {}),
      ...(sendProgress ? { sendProgress } : {})
    };
    void Promise.resolve()
      .then(() => app.callTool(served))
      .then((result) => {
        const serverInfo = this.identity();
        if (abort.signal.aborted) return;
        const value = result as Json;
        if (isInputRequiredResult(value)) {
          const refused = inputRequiredRefusal(value, call.capabilities);
          if (refused) throw refused;
          return answer.respond({ result: encodedResult(value, serverInfo), jsonrpc: '2.0', id: call.id });
        }
        // Checked as the SDK's server checks a result (an app's handler may return any `content`): a misfit is its -32602.
        const shaped = value.resultType === 'task' ? value : checkedToolResult(projected(value));
        answer.respond({ result: encodedResult(shaped, serverInfo), jsonrpc: '2.0', id: call.id });
      })
      .catch((thrown: { code?: unknown; message?: string; data?: unknown }) => {
        if (abort.signal.aborted) return;
        const error = thrownAsWireError(modernError(thrown));
        answer.respond(
          { jsonrpc: '2.0', id: call.id, error },
          error.code === ProtocolErrorCode.MissingRequiredClientCapability ? 400 : undefined
        );
      })
      .finally(() => {
        request.signal.removeEventListener('abort', gone);
        this.running.delete(abort);
        answer.end();
      });
    return answer.response;
  }
}

/** A `tools/call` the lane takes. */
interface LaneCall {
  readonly id: string | number;
  readonly name: string;
  readonly args: Json | undefined;
  readonly meta: Json;
  readonly token: string | number | undefined;
  readonly capabilities: ClientCapabilities;
  readonly inputResponses: Json | undefined;
  readonly hasInputResponses: boolean;
  readonly requestState: string | undefined;
}
