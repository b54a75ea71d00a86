import { Client, StreamableHTTPClientTransport, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { MAX_INPUT_ROUNDS } from '@mcpfusion/core/input-rounds';
import { CliError, ExitCode } from '../cli-error';
import type { Target } from '../options';
import { RawExchange } from '@mcpfusion/core/raw-exchange';
import type { Answer, EraName } from './inspector-protocol';
import type { QuestionParams } from './question-desk';

/** The MCP Apps extension the inspector declares (it renders views). */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
/** The media type of an MCP Apps view document. */
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';
/** The tasks extension's name (2026-07-28). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** The inspector's `clientInfo`. */
export const INSPECTOR_CLIENT_INFO = { name: 'mcpfusion-inspector', version: '1.0.0' };
/** What the inspector declares it can do: form and URL questions, and rendering views. */
export const INSPECTOR_CAPABILITIES = {
  elicitation: { form: {}, url: {} },
  extensions: { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } }
};

/** What a link is told while it lives. */
export interface LinkListener {
  /** Every JSON-RPC message, as it crossed the transport. */
  message(direction: 'sent' | 'received', message: JSONRPCMessage): void;
  /** A question of the server (elicitation; on 2026-07-28 also each input round, through the client's loop). */
  ask(params: QuestionParams, signal: AbortSignal): Promise<Answer>;
  /** The server's list of tools, prompts or resources changed. */
  listChanged(what: 'tools' | 'prompts' | 'resources'): void;
  /** The connection closed (the server went away, or {@link McpLink.close}). */
  closed(): void;
}

/** A connected SDK client in one era. */
export interface McpLink {
  readonly client: Client;
  readonly era: EraName;
  readonly protocolVersion: string;
  readonly modern: boolean;
  readonly http: boolean;
  /** Requests the SDK client refuses to make (a tools/call that may be answered with a task, tasks/*). */
  readonly raw: RawExchange;
  /** What a spawned server wrote to stderr lately. */
  serverStderr(): string;
  close(): Promise<void>;
}

const STDERR_KEPT = 4000;

/**
 * Connects an SDK v2 client to the target in `era`: `2025-11-25` runs the `initialize`
 * handshake, `2026-07-28` pins the modern protocol (no handshake). Every message in and out is
 * handed to the listener (the page's JSON-RPC log) before the client sees it; answers to the
 * raw requests are taken off here.
 */
export async function openLink(target: Target, headers: Record<string, string>, era: EraName, listener: LinkListener): Promise<McpLink> {
  const client = new Client(INSPECTOR_CLIENT_INFO, {
    capabilities: INSPECTOR_CAPABILITIES,
    versionNegotiation: { mode: era === '2025-11-25' ? 'legacy' : { pin: '2026-07-28' } },
    inputRequired: { maxRounds: MAX_INPUT_ROUNDS }
  });
  // On 2026-07-28 the client's own input_required loop calls this same handler for each request of a round.
  client.setRequestHandler(
    'elicitation/create',
    (request, ctx) => listener.ask(request.params as QuestionParams, ctx.mcpReq.signal) as never
  );
  client.setNotificationHandler('notifications/tools/list_changed', () => listener.listChanged('tools'));
  client.setNotificationHandler('notifications/prompts/list_changed', () => listener.listChanged('prompts'));
  client.setNotificationHandler('notifications/resources/list_changed', () => listener.listChanged('resources'));

  let stderr = '';
  let transport: Transport;
  if (target.kind === 'http') {
    transport = new StreamableHTTPClientTransport(target.url, { requestInit: { headers } });
  } else {
    // The server gets this process's environment, as a shell would give it.
    const env = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const stdio = new StdioClientTransport({ command: target.command, args: target.args, env, stderr: 'pipe' });
    stdio.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT);
    });
    transport = stdio;
  }
  // Sends are logged, and awaited on close: a cancellation sent just before must not be cut off.
  const sending = new Set<Promise<void>>();
  const observed = observeTransport(transport, {
    sent: (message) => {
      listener.message('sent', message);
    },
    sending: (sent) => {
      sending.add(sent);
      void sent.catch(() => undefined).finally(() => sending.delete(sent));
    },
    received: (message) => {
      listener.message('received', message);
      if (raw.takes(message)) return false;
      // Progress of the raw requests (string tokens the inspector chose) is the backend's, not the client's.
      return !('method' in message && message.method === 'notifications/progress' && isOwnToken(message.params?.progressToken));
    }
  });
  const raw = new RawExchange(observed, target.kind !== 'http');
  const where = target.kind === 'http' ? target.url.href : [target.command, ...target.args].join(' ');
  client.onclose = () => listener.closed();
  try {
    await client.connect(observed);
  } catch (error) {
    client.onclose = undefined;
    await client.close().catch(() => undefined);
    const tail = stderr.trim() ? `\n${stderr.trim()}` : '';
    throw new CliError(`could not connect to ${where} (${era}): ${(error as Error).message}${tail}`, ExitCode.PROTOCOL_ERROR);
  }
  return {
    client,
    era,
    protocolVersion: client.getNegotiatedProtocolVersion() ?? era,
    modern: client.getProtocolEra() === 'modern',
    http: target.kind === 'http',
    raw,
    serverStderr: () => stderr,
    close: async () => {
      client.onclose = undefined;
      await Promise.allSettled([...sending]);
      await client.close().catch(() => undefined);
    }
  };
}

/** The prefix of the progress tokens the inspector's raw requests carry. */
export const OWN_TOKEN_PREFIX = 'inspector-';

function isOwnToken(token: unknown): boolean {
  return typeof token === 'string' && token.startsWith(OWN_TOKEN_PREFIX);
}

/** What {@link observeTransport} tells and asks. */
interface TransportObserver {
  sent(message: JSONRPCMessage): void;
  sending(sent: Promise<void>): void;
  /** Whether the message goes on to the client. */
  received(message: JSONRPCMessage): boolean;
}

/**
 * The transport as the client sees it, with every message in and out shown to the observer
 * first (the handshake included). A proxy rather than a wrapper object: the SDK reads the
 * transport's own properties (its session, its per-request streams), which pass through; the
 * transport's methods run on the transport itself, which calls the observer's `onmessage`, while
 * the client reads back the handler it set (so its own chaining of handlers stays intact).
 */
function observeTransport(transport: Transport, observer: TransportObserver): Transport {
  let receive: Transport['onmessage'];
  const observe: NonNullable<Transport['onmessage']> = (message, extra) => {
    if (observer.received(message)) receive?.(message, extra);
  };
  transport.onmessage = observe;
  const send: Transport['send'] = (message, options) => {
    observer.sent(message);
    const sent = transport.send(message, options);
    observer.sending(sent);
    return sent;
  };
  return new Proxy(transport, {
    get(target, property) {
      if (property === 'onmessage') return receive;
      if (property === 'send') return send;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set(target, property, value) {
      if (property === 'onmessage') {
        receive = value as Transport['onmessage'];
        return true;
      }
      return Reflect.set(target, property, value, target);
    }
  });
}
