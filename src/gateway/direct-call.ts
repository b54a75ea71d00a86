import type { IncomingMessage } from 'node:http';
import type { Client, JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { UpstreamError } from '../errors';
import type { UpstreamCall } from './upstream-call';
import type { UpstreamFetch } from './upstream-fetch';
import { bodyText, legacyResult, messageProblem, parseJson } from './direct-wire';
import type { SentCall } from './upstream-send';
import { SseSplitter } from './upstream-sse';
import { UpstreamRpcError } from '../wire/raw-exchange';
import { UPSTREAM_LIMITS } from './guards/limits';
import { describeTarget, type ResolvedTarget } from './upstream-target';
import { throughRounds } from './upstream-rounds';
import { DirectTools, decodeModernResult, modernHeaders, modernLineOf, rpcErrorIn, type ModernLine } from './direct-modern';

type Json = Record<string, unknown>;

/** What a {@link DirectCalls} needs of its connection (given, so that it imports nothing of the connection). */
export interface DirectLine {
  /** The upstream's endpoint. */
  readonly url: URL;
  /** The connection's keep-alive sockets. */
  readonly http: UpstreamFetch;
  /** The SDK transport, for what the gateway leaves to it: `notifications/cancelled`, and a stream resumed after it ended early. */
  readonly transport: Transport;
  /** The upstream as errors name it. */
  readonly label: string;
  /** One message's bound (a JSON body whole, an SSE event each). */
  readonly maxBytes: number;
  /** The headers of each request (see {@link callHeaders}); each request gets its own copy. */
  readonly headers: Readonly<Record<string, string>>;
  /** A 2026-07-28 upstream's envelope and revision (see direct-modern.ts); absent for a 2025-era one. */
  readonly modern?: ModernLine;
  /** Where everything else the call's stream carries goes (progress, log messages, questions, noise): the connection's tap, in the call's context. */
  deliver(call: UpstreamCall, message: JSONRPCMessage): void;
  /** Something on the stream that is no JSON-RPC message: the connection's guard counts it. */
  noticed(error: Error): void;
}

interface Waiter {
  settle(message: Json): void;
}

/**
 * A 2025-era `tools/call` to a Streamable HTTP upstream, sent by the gateway itself rather than
 * through the SDK client: the request is one write on the connection's keep-alive socket, and the
 * answer (a JSON body, or an SSE stream) is split and parsed here, once. A profile of a hop named
 * the SDK client's per-message work as a large part of what was left: a web `Response` and
 * `Headers`, the body through a counting `TransformStream`, a `TextDecoderStream` and an
 * `EventSourceParserStream`, each message through the JSON-RPC zod schema, then the request
 * machinery's bookkeeping. What the call's stream carries besides its answer goes to the
 * connection's tap as the SDK transport's messages do (progress and log messages to the call,
 * questions to the SDK client's handlers, in the call's context), so routing, guards and bounds are
 * those of every other message. The answer's shape is checked as before (`FORWARDED_RESULT`).
 *
 * Kept as the SDK does it: a cancelled call is told upstream with `notifications/cancelled`; a
 * stream that ends without the answer after the upstream gave it an event id is resumed through
 * the SDK transport (`Last-Event-ID`), whose messages reach {@link takes}. Unsent: nothing is
 * retried.
 */
export class DirectCalls {
  /** Calls whose stream was resumed through the SDK transport: their answer comes through the tap. */
  private readonly resumed = new Map<string, Waiter>();
  private nextId = 1;
  /** A 2026-07-28 upstream's tools whose calls go out directly (see `DirectTools`). */
  readonly tools = new DirectTools();

  constructor(private readonly line: DirectLine) {}

  /** Whether a call to `name` goes out directly (every call to a 2025-era upstream; see `DirectTools` for a 2026-07-28 one). */
  accepts(name: string): boolean {
    return this.line.modern === undefined || this.tools.has(name);
  }

  /** Whether `message` is the answer to a resumed call (it is then settled here, and not passed on). */
  takes(message: JSONRPCMessage): boolean {
    if (this.resumed.size === 0 || 'method' in message || !('id' in message) || typeof message.id !== 'string') return false;
    const waiter = this.resumed.get(message.id);
    if (!waiter) return false;
    this.resumed.delete(message.id);
    waiter.settle(message as unknown as Json);
    return true;
  }

  /**
   * Sends the call and resolves with its result (shape-checked); a JSON-RPC error rejects as an
   * {@link UpstreamRpcError}. To a 2026-07-28 upstream with the SDK's envelope and headers, each
   * `input_required` round passed through as the SDK path does (`throughRounds`).
   */
  send(call: UpstreamCall, params: SentCall): Promise<unknown> {
    const modern = this.line.modern;
    if (!modern) return this.exchange(call, { ...params }, this.line.headers, legacyResult);
    const headers = modernHeaders(this.line.headers, modern, params.name);
    return throughRounds<object>(call, (retry) =>
      this.exchange<object>(call, { ...params, ...retry, _meta: { ...modern.envelope, ...params._meta } }, headers, decodeModernResult)
    );
  }

  /** One request of a call (a round of it, for a 2026-07-28 upstream), its result read by `decode`. */
  private exchange<T = unknown>(
    call: UpstreamCall,
    params: Record<string, unknown>,
    sentHeaders: Readonly<Record<string, string>>,
    decode: (result: unknown) => { value: unknown } | Error
  ): Promise<T> {
    const id = `gw-call:${this.nextId++}`;
    const message = { jsonrpc: '2.0', id, method: 'tools/call', params };
    const signal = call.signal;
    return new Promise<T>((resolve, reject) => {
      let done = false;
      const finish = (end: () => void): void => {
        if (done) return;
        done = true;
        signal.removeEventListener('abort', onAbort);
        this.resumed.delete(id);
        end();
      };
      const answer = (reply: Json): void =>
        finish(() => {
          const error = reply.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
          if (error !== undefined) {
            if (typeof error !== 'object' || error === null || typeof error.code !== 'number' || typeof error.message !== 'string')
              return reject(new Error(`The upstream ${this.line.label} answered with a malformed error.`));
            return reject(new UpstreamRpcError(error.code, error.message, error.data));
          }
          const decoded = decode(reply.result);
          if (decoded instanceof Error) return reject(decoded);
          resolve(decoded.value as T);
        });
      const fail = (error: unknown): void => finish(() => reject(error));
      // As the SDK's request does: the upstream is told (the HTTP request, and its stream, end with the signal; a
      // 2026-07-28 upstream reads that as the cancellation, a 2025-era one is also sent `notifications/cancelled`).
      const onAbort = (): void => {
        fail(signal.reason);
        if (this.line.modern) return;
        void this.line.transport
          .send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: String(signal.reason) } })
          .catch(() => undefined);
      };
      // Cancelled before it was sent: nothing to tell the upstream.
      if (signal.aborted) return fail(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      const headers = { ...sentHeaders };
      this.line.http.request(this.line.url, 'POST', headers, JSON.stringify(message), signal).then((incoming) => {
        if (done) return void incoming.destroy();
        this.read(call, id, incoming, message, { answer, fail, done: () => done });
      }, fail);
    });
  }

  /** Reads the answer to request `id`: a JSON body, or an SSE stream; anything else fails the call as the SDK transport would. */
  private read(call: UpstreamCall, id: string, incoming: IncomingMessage, sent: Json, end: ReadEnd): void {
    const status = incoming.statusCode ?? 0;
    const type = (incoming.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (status < 200 || status >= 300 || status === 202 || (type !== 'application/json' && type !== 'text/event-stream')) {
      void bodyText(incoming, 64 * 1024).then((text) =>
        end.fail(
          // A 2026-07-28 upstream refuses a request it cannot take (a header it disagrees with, say) with a JSON-RPC error in a 4xx.
          (this.line.modern && rpcErrorIn(text)) ||
            (status >= 200 && status < 300
              ? new Error(status === 202 ? 'The upstream accepted the call without answering it.' : `Unexpected content type: ${type}`)
              : new Error(`Error POSTing to endpoint: ${text}`))
        )
      );
      return;
    }
    const onMessage = (value: unknown): void => {
      if (end.done()) return;
      const problem = messageProblem(value);
      if (problem) return this.line.noticed(new SyntaxError(`${problem}: ${JSON.stringify(value).slice(0, 200)}`));
      const message = value as Json;
      if (!('method' in message) && message.id === id) return end.answer(message);
      this.line.deliver(call, message as JSONRPCMessage);
    };
    const tooLarge = (): void => {
      end.fail(
        new UpstreamError(`The upstream ${this.line.label} sent a message over ${this.line.maxBytes} bytes; the gateway does not read it.`)
      );
      incoming.destroy();
    };
    const broken = (): void => end.fail(new TypeError('terminated'));
    incoming.once('aborted', broken);
    incoming.on('error', broken);
    if (type === 'application/json') {
      const chunks: Buffer[] = [];
      let size = 0;
      incoming.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > this.line.maxBytes) return tooLarge();
        chunks.push(chunk);
      });
      incoming.once('end', () => {
        const parsed = parseJson(Buffer.concat(chunks).toString('utf8'));
        if (parsed instanceof Error) return end.fail(parsed);
        for (const value of Array.isArray(parsed) ? parsed : [parsed]) onMessage(value);
        if (!end.done()) end.fail(new Error(`The upstream ${this.line.label} answered without the call's response.`));
      });
      return;
    }
    let lastEventId: string | undefined;
    const splitter = new SseSplitter(this.line.maxBytes, (event) => {
      if (event.id !== undefined) lastEventId = event.id;
      if (event.data === '' || (event.event !== '' && event.event !== 'message')) return;
      const parsed = parseJson(event.data);
      if (parsed instanceof Error) return this.line.noticed(parsed);
      onMessage(parsed);
    });
    incoming.on('data', (chunk: Buffer) => {
      if (!end.done() && !splitter.push(chunk)) tooLarge();
    });
    incoming.once('end', () => {
      if (end.done()) return;
      if (lastEventId === undefined)
        return end.fail(new Error(`The upstream ${this.line.label} ended the call's stream without answering it.`));
      // The upstream closed the stream on purpose (SSE polling): the SDK transport resumes it, and its answer comes to `takes`.
      this.resumed.set(id, { settle: end.answer });
      this.line.transport
        .send(sent as JSONRPCMessage, { resumptionToken: lastEventId, requestSignal: call.signal })
        .catch((error: unknown) => end.fail(error));
    });
  }
}

/**
 * The direct calls of a connection to a Streamable HTTP upstream, over its keep-alive sockets
 * (`http`); undefined for stdio and HTTP+SSE, whose calls go through the SDK client.
 */
export function directCallsOver(
  target: ResolvedTarget,
  http: UpstreamFetch | undefined,
  line: Pick<DirectLine, 'transport' | 'deliver' | 'noticed'> & { sessionId?: string; client: Client }
): DirectCalls | undefined {
  if (target.kind !== 'http' || !http) return undefined;
  const { sessionId, client, ...rest } = line;
  const protocolVersion = client.getNegotiatedProtocolVersion();
  const modern = modernLineOf(client);
  return new DirectCalls({
    ...rest,
    ...(modern ? { modern } : {}),
    url: target.url,
    http,
    label: describeTarget(target),
    maxBytes: UPSTREAM_LIMITS.maxMessageBytes,
    headers: callHeaders(target.headers, sessionId, protocolVersion)
  });
}

/**
 * The headers of a direct call, as the SDK transport sends a request: the target's own (named in
 * lower case, so that none is sent twice), JSON in, JSON or SSE out, the upstream session's id and
 * the negotiated version.
 */
export function callHeaders(
  target: Readonly<Record<string, string>>,
  sessionId: string | undefined,
  protocolVersion: string | undefined
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(target)) headers[name.toLowerCase()] = value;
  headers['content-type'] = 'application/json';
  headers.accept = 'application/json, text/event-stream';
  if (sessionId) headers['mcp-session-id'] = sessionId;
  if (protocolVersion) headers['mcp-protocol-version'] = protocolVersion;
  return headers;
}

/** How a read ends: with the call's answer, or failed; `done` once either happened. */
interface ReadEnd {
  answer(reply: Json): void;
  fail(error: unknown): void;
  done(): boolean;
}
