/** The wire around an upstream connection: its transport, what it is told of the front client, and how its failures read. */
import {
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type ClientCapabilities,
  type FetchLike,
  type Transport
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { MissingCapabilityError, ToolError, UpstreamError } from '../errors';
import { invalidRequest } from '../errors/peer-refusals';
import type { UpstreamAnswer } from './upstream-call';
import type { UpstreamFetchFn } from './upstream-fetch';
import { describeTarget, type ResolvedTarget } from './upstream-target';
import { boundedFetch } from './guards/bounded-fetch';
import { UPSTREAM_LIMITS } from './guards/limits';

/**
 * The transport to a target: Streamable HTTP with its headers (sent with `fetch`, see
 * `upstream-fetch.ts`), or HTTP+SSE, or a spawned process whose stderr goes to `stderr`.
 */
export function upstreamTransport(target: ResolvedTarget, stderr: (chunk: string) => void, fetch?: UpstreamFetchFn): Transport {
  if (target.kind === 'http' && target.sse) {
    // The headers go on every request, the GET that opens the event stream included (requestInit reaches only the POSTs);
    // each event is bounded as a Streamable HTTP message is.
    const bounded = boundedFetch(UPSTREAM_LIMITS.maxMessageBytes, describeTarget(target));
    const withHeaders: FetchLike = (url, init) => {
      const headers = new Headers(init?.headers);
      for (const [name, value] of Object.entries(target.headers)) if (!headers.has(name)) headers.set(name, value);
      return bounded(url, { ...init, headers });
    };
    return new SSEClientTransport(target.url, { fetch: withHeaders });
  }
  // One message larger than the gateway keeps fails (HTTP: the body is cut off; stdio: the SDK's read buffer closes the connection).
  if (target.kind === 'http')
    return new StreamableHTTPClientTransport(target.url, {
      requestInit: { headers: { ...target.headers } },
      fetch: boundedFetch(UPSTREAM_LIMITS.maxMessageBytes, describeTarget(target), fetch)
    });
  // The upstream gets this process's environment, as a shell would give it (the SDK passes only a safe few by default).
  const inherited = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const stdio = new StdioClientTransport({
    command: target.command,
    args: [...target.args],
    env: { ...inherited, ...target.env },
    ...(target.cwd ? { cwd: target.cwd } : {}),
    stderr: 'pipe',
    maxBufferSize: UPSTREAM_LIMITS.maxMessageBytes
  });
  stdio.stderr?.on('data', (chunk: Buffer) => stderr(chunk.toString()));
  return stdio;
}

/** The answer to an upstream request as its handler returns it: the front client's result, or a JSON-RPC error saying why not. */
export function answered(answer: UpstreamAnswer): Record<string, unknown> {
  if ('refused' in answer) throw invalidRequest(answer.refused);
  return answer.result;
}

/** What the gateway forwards of the front client's capabilities (it answers nothing else on the front client's behalf). */
export function forwardedCapabilities(front: ClientCapabilities): ClientCapabilities {
  const forwarded: Record<string, unknown> = {};
  for (const key of ['elicitation', 'sampling', 'roots'] as const) if (front[key] !== undefined) forwarded[key] = front[key];
  return forwarded as ClientCapabilities;
}

/**
 * An upstream request that failed: a ToolError saying so, in the upstream's own words; the
 * upstream's missing-capability refusal (-32021, for the front client's capabilities it was told)
 * stays that refusal, naming what is missing.
 */
export function upstreamFailure(error: unknown, tool?: string): Error {
  if (error instanceof ToolError || error instanceof UpstreamError) return error;
  const bound = boundBroken(error);
  if (bound) return bound;
  const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
  if (code === -32021 && tool !== undefined) {
    const required = (data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities;
    const capabilities = required && typeof required === 'object' ? (required as Record<string, unknown>) : {};
    return new MissingCapabilityError(tool, capabilities, typeof message === 'string' ? message : undefined);
  }
  const text = typeof message === 'string' ? message : String(error);
  return new ToolError(`The upstream server refused the call${typeof code === 'number' ? ` (${code})` : ''}: ${text}`, { cause: error });
}

/** An {@link UpstreamError} among an error's causes (a bound the transport enforced, wrapped by the SDK). */
function boundBroken(error: unknown): UpstreamError | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++)
    if (e instanceof UpstreamError) return e;
  return undefined;
}
