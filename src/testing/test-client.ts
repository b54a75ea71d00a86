import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { FusionApp } from '../app/fusion-app';
import { answerFromMap, harnessView, type HarnessInputAnswer, type HarnessInputRequest } from '../direct/direct-answers';
import type { HttpHandlerOptions } from '../transports/http/fusion-http-handler';

/** Options of {@link connectTestClient}. */
export interface TestClientOptions {
  /**
   * `'modern'` (default): 2026-07-28 over the app's HTTP handler in-process.
   * `'legacy-http'`: a 2025-era client with a session over the same handler.
   * `'legacy-memory'`: a 2025-era client over an in-memory linked pair (a live channel).
   */
  era?: 'modern' | 'legacy-http' | 'legacy-memory';
  /** Capabilities the client declares (elicitation, sampling, …). */
  capabilities?: ConstructorParameters<typeof Client>[1] extends infer O ? (O extends { capabilities?: infer C } ? C : never) : never;
  /** Options of the in-process HTTP handler. */
  http?: HttpHandlerOptions;
  /**
   * Answers to requests for input, by field name (see `DirectCallOptions.answers`). With
   * `answers` or `onInput` the client declares elicitation (form and URL) and answers
   * both eras: live `elicitation/create` on 2025 connections, MRTR rounds on 2026 ones.
   */
  answers?: Record<string, unknown>;
  /** Answers requests for input one by one. */
  onInput?: (request: HarnessInputRequest) => HarnessInputAnswer | Promise<HarnessInputAnswer>;
  /** The client's own round cap for 2026-era calls (the SDK default is 10). */
  maxRounds?: number;
}

/** A connected client and its teardown. */
export interface TestClient {
  /** The connected SDK client: call `callTool`, `listTools`, `readResource`, … on it. */
  readonly client: Client;
  /** Closes the client and its transport (not the app). */
  close(): Promise<void>;
}

/**
 * Connects a real SDK `Client` to the app in-process, with no socket. Close it (and the
 * app) after the test. It lists the tools once, as real clients do before they call one, so
 * the SDK client checks every tool result against the listed `outputSchema` the way theirs do.
 *
 * @example
 * ```ts
 * const { client, close } = await connectTestClient(app);
 * const result = await client.callTool({ name: 'billing.invoice', arguments: { id: 1 } });
 * await close();
 * ```
 */
export async function connectTestClient(app: FusionApp, options: TestClientOptions = {}): Promise<TestClient> {
  const era = options.era ?? 'modern';
  const answering = Boolean(options.answers || options.onInput);
  const capabilities = options.capabilities ?? (answering ? { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} } : {});
  const client = new Client(
    { name: 'mcpfusion-test', version: '1.0.0' },
    {
      capabilities,
      ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
      ...(options.maxRounds ? { inputRequired: { maxRounds: options.maxRounds } } : {})
    }
  );
  if (answering) {
    const answer = async (key: string, method: string, params: Record<string, unknown>) => {
      const view = harnessView(key, { method, params });
      return (options.onInput ? await options.onInput(view) : answerFromMap(view, options.answers ?? {})) as never;
    };
    // On 2026 connections the client's MRTR driver calls these same handlers for each embedded request.
    client.setRequestHandler('elicitation/create', (request) =>
      answer(request.params.mode === 'url' ? 'url' : 'input', 'elicitation/create', request.params as never)
    );
    client.setRequestHandler('sampling/createMessage', (request) => answer('sampling', 'sampling/createMessage', request.params as never));
    client.setRequestHandler('roots/list', () => answer('roots', 'roots/list', {}));
  }
  if (era === 'legacy-memory') {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = await app.serverFactory({ era: 'legacy' });
    await server.connect(serverSide);
    await client.connect(clientSide);
    await primeToolListing(client);
    return {
      client,
      async close() {
        await client.close();
        await server.close();
      }
    };
  }
  const handler = app.createHttpHandler(options.http);
  const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
    fetch: (url, init) => handler.fetch(new Request(url, init))
  });
  await client.connect(transport);
  await primeToolListing(client);
  return {
    client,
    async close() {
      await client.close();
      await handler.close();
    }
  };
}

/**
 * The SDK client checks a result against a tool's `outputSchema` only once it has listed the
 * tools (it caches the listing); real clients list before they call, so the test client does
 * too. A listing the app refuses (a token the test has not given yet) leaves it unprimed.
 */
async function primeToolListing(client: Client): Promise<void> {
  if (!client.getServerCapabilities()?.tools) return;
  await client.listTools().catch(() => undefined);
}
