/** The wire around an upstream connection: its transport, what it is told of the front client, and how its failures read. */
import { StreamableHTTPClientTransport, type ClientCapabilities, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { MissingCapabilityError, ToolError } from '../errors';
import { invalidRequest } from '../errors/peer-refusals';
import type { UpstreamAnswer } from './upstream-call';
import type { UpstreamFetchFn } from './upstream-fetch';
import type { ResolvedTarget } from './upstream-target';

/**
 * The transport to a target: Streamable HTTP with its headers (sent with `fetch`, see
 * `upstream-fetch.ts`), or a spawned process whose stderr goes to `stderr`.
 */
export function upstreamTransport(target: ResolvedTarget, stderr: (chunk: string) => void, fetch?: UpstreamFetchFn): Transport {
  if (target.kind === 'http')
    return new StreamableHTTPClientTransport(target.url, { requestInit: { headers: { ...target.headers } }, ...(fetch ? { fetch } : {}) });
  // The upstream gets this process's environment, as a shell would give it (the SDK passes only a safe few by default).
  const inherited = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const stdio = new StdioClientTransport({
    command: target.command,
    args: [...target.args],
    env: { ...inherited, ...target.env },
    ...(target.cwd ? { cwd: target.cwd } : {}),
    stderr: 'pipe'
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
  if (error instanceof ToolError) return error;
  const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
  if (code === -32021 && tool !== undefined) {
    const required = (data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities;
    const capabilities = required && typeof required === 'object' ? (required as Record<string, unknown>) : {};
    return new MissingCapabilityError(tool, capabilities, typeof message === 'string' ? message : undefined);
  }
  const text = typeof message === 'string' ? message : String(error);
  return new ToolError(`The upstream server refused the call${typeof code === 'number' ? ` (${code})` : ''}: ${text}`, { cause: error });
}
