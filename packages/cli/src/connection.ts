import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { MAX_INPUT_ROUNDS } from '@mcpfusion/core/input-rounds';
import { CliError, ExitCode } from './cli-error';
import type { ConnectionOptions } from './options';
import { RawExchange } from '@mcpfusion/core/raw-exchange';

/** The tasks extension's name (2026-07-28). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The client's name and version in `clientInfo`. */
export const CLIENT_INFO = { name: 'mcpfusion-cli', version: '1.0.0' };

/** A connected SDK client, its era and its teardown. */
export interface Connection {
  readonly client: Client;
  /** `2025-11-25`, `2026-07-28`, … as negotiated. */
  readonly protocolVersion: string;
  readonly modern: boolean;
  /** What a spawned server wrote to stderr lately (for the message when it dies). */
  serverStderr(): string;
  /**
   * Called with every `notifications/progress` the server sends (the CLI runs one call at a
   * time, so they are its call's). Read at the transport: the SDK client hands progress to its
   * callback a microtask late, and drops those that arrive in the same read as the response
   * (a stdio server writes them together), so the bar would miss its last steps.
   */
  onProgress?: (params: { progress: number; total?: number; message?: string }) => void;
  /** Requests sent as they are over the same transport, for what the SDK client refuses (`call --task`). */
  readonly raw: RawExchange;
  close(): Promise<void>;
}

/** What {@link connect} is asked besides where. */
export interface ConnectSettings {
  /** Declare the tasks extension in the client capabilities. */
  readonly tasks?: boolean;
  /** Registers request handlers (elicitation) on the client before it connects. */
  readonly prepare?: (client: Client) => void;
}

const STDERR_KEPT = 4000;

/**
 * Connects the SDK v2 client to the target: Streamable HTTP with the extra headers, or a
 * spawned stdio server. `--era 2025` runs the `initialize` handshake, `--era 2026` pins
 * 2026-07-28, and no era negotiates (`server/discover` first, `initialize` as fallback).
 * The client declares form and URL elicitation, so questions reach the terminal in both eras.
 */
export async function connect(options: ConnectionOptions, settings: ConnectSettings = {}): Promise<Connection> {
  const client = new Client(CLIENT_INFO, {
    capabilities: {
      elicitation: { form: {}, url: {} },
      ...(settings.tasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {})
    },
    versionNegotiation: { mode: options.era === '2025' ? 'legacy' : options.era === '2026' ? { pin: '2026-07-28' } : 'auto' },
    // The client's own loop answers a 2026-07-28 call's rounds of input, with the framework's cap.
    inputRequired: { maxRounds: MAX_INPUT_ROUNDS }
  });
  settings.prepare?.(client);
  let stderr = '';
  let transport: Transport;
  if (options.target.kind === 'http') {
    transport = new StreamableHTTPClientTransport(options.target.url, { requestInit: { headers: options.headers } });
  } else {
    // The server gets this process's environment, as a shell would give it (the SDK passes only a safe few by default).
    const env = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const stdio = new StdioClientTransport({ command: options.target.command, args: options.target.args, env, stderr: 'pipe' });
    stdio.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT);
    });
    transport = stdio;
  }
  // A cancellation is a notification the SDK sends without waiting: closing the transport
  // right after could drop it (an HTTP POST in flight is aborted), so close waits for every send.
  const sending = new Set<Promise<void>>();
  const send = transport.send.bind(transport);
  transport.send = (message, sendOptions) => {
    const sent = send(message, sendOptions);
    sending.add(sent);
    void sent.catch(() => undefined).finally(() => sending.delete(sent));
    return sent;
  };
  const where = options.target.kind === 'http' ? options.target.url.href : [options.target.command, ...options.target.args].join(' ');
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => undefined);
    const tail = stderr.trim() ? `\n${stderr.trim()}` : '';
    throw new CliError(`could not connect to ${where}: ${(error as Error).message}${tail}`, ExitCode.PROTOCOL_ERROR);
  }
  const protocolVersion = client.getNegotiatedProtocolVersion() ?? 'unknown';
  const receive = transport.onmessage;
  const raw = new RawExchange(transport, options.target.kind !== 'http');
  transport.onmessage = (message, extra) => {
    if ('method' in message && message.method === 'notifications/progress' && message.params)
      connection.onProgress?.(message.params as never);
    if (!raw.takes(message)) receive?.(message, extra);
  };
  const connection: Connection = {
    client,
    protocolVersion,
    modern: client.getProtocolEra() === 'modern',
    serverStderr: () => stderr,
    raw,
    close: async () => {
      await Promise.allSettled([...sending]);
      await client.close().catch(() => undefined);
    }
  };
  return connection;
}
