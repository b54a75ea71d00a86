import { request } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/**
 * What every deploy target (test/integration/targets/) must do, through a real SDK client over
 * real HTTP: the same steps whatever runs the server (Node, Bun, Deno, workerd, Hono, Next.js).
 * The server is a template (examples/starter, examples/templates/<name>/): the starter's tools,
 * `notes.import` among them (a generator mutation that reports a count after each note and
 * pauses between notes on the call's signal).
 */

/** The protocol eras a target is checked in: 2026-07-28 everywhere, 2025-11-25 where it keeps sessions. */
export type TargetEra = '2026-07-28' | '2025-11-25';

/** The tools every template serves. */
export const TEMPLATE_TOOLS = ['greet', 'notes.add', 'notes.clear', 'notes.import', 'notes.list'] as const;

/** Notes imported by the cancelled call: enough that, at the templates' 10 ms pace, it cannot end before it is cancelled. */
const LONG_IMPORT = 500;

/** Connects an SDK client of `era` that answers the starter's one question (`confirm`) with `confirm`. */
export async function connectTargetClient(
  url: URL,
  era: TargetEra,
  options: { confirm?: boolean; asked?: string[]; fetch?: typeof fetch } = {}
): Promise<Client> {
  const client = new Client(
    { name: 'mcpfusion-target-check', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      ...(era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {})
    }
  );
  // On 2026 connections the client's input-round driver calls this same handler for each embedded request.
  client.setRequestHandler('elicitation/create', (req) => {
    options.asked?.push(req.params.message);
    return Promise.resolve({ action: 'accept' as const, content: { confirm: options.confirm ?? true } });
  });
  await client.connect(new StreamableHTTPClientTransport(url, options.fetch ? { fetch: options.fetch } : undefined));
  const negotiated = client.getNegotiatedProtocolVersion();
  if (negotiated !== era) {
    await client.close();
    throw new Error(`the target negotiated ${String(negotiated)} with a ${era} client`);
  }
  return client;
}

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
}

async function noteCount(client: Client): Promise<number> {
  const listed = await client.callTool({ name: 'notes.list', arguments: {} });
  return (listed.structuredContent as { notes: unknown[] }).notes.length;
}

/**
 * The scenario in one era, on one connection:
 * 1. the template's tools are listed;
 * 2. `notes.import` of three notes reports 1, 2, 3 of 3 (with messages) before its result;
 * 3. a long import is cancelled after its first progress message; `notes.add` then answers (the
 *    mutation lock was released: were it not, it would wait behind the rest of the import), and
 *    the import stopped midway;
 * 4. `notes.clear` asks to confirm; the answer (yes) deletes every note.
 * Throws (a jest failure) at the first step that does not hold, naming it.
 */
export async function runTargetScenario(options: { url: URL; era: TargetEra; fetch?: typeof fetch }): Promise<void> {
  const asked: string[] = [];
  const client = await connectTargetClient(options.url, options.era, { asked, fetch: options.fetch });
  try {
    const step = async <T>(name: string, body: () => Promise<T>): Promise<T> => {
      try {
        return await body();
      } catch (error) {
        throw new Error(`${options.era}: ${name}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    };

    await step('tools listed', async () => {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name).sort();
      for (const name of TEMPLATE_TOOLS) if (!names.includes(name)) throw new Error(`${name} is not listed (listed: ${names.join(', ')})`);
    });

    await step('a call with progress', async () => {
      const seen: { progress: number; total?: number; message?: string }[] = [];
      const result = await client.callTool(
        { name: 'notes.import', arguments: { texts: ['one', 'two', 'three'] } },
        { onprogress: (update) => seen.push({ progress: update.progress, total: update.total, message: update.message }) }
      );
      if (result.isError) throw new Error(`notes.import failed: ${textOf(result)}`);
      if (textOf(result) !== 'Imported 3 notes.') throw new Error(`unexpected result: ${textOf(result)}`);
      const expected = [1, 2, 3].map((n) => ({ progress: n, total: 3, message: `imported ${n} of 3` }));
      if (JSON.stringify(seen) !== JSON.stringify(expected)) throw new Error(`progress was ${JSON.stringify(seen)}`);
    });

    await step('a call cancelled midway, then the next mutation at once', async () => {
      const before = await noteCount(client);
      const controller = new AbortController();
      let firstProgress!: () => void;
      const progressed = new Promise<void>((resolve) => (firstProgress = resolve));
      const long = client
        .callTool(
          { name: 'notes.import', arguments: { texts: Array.from({ length: LONG_IMPORT }, (_, i) => `bulk ${i + 1}`) } },
          { signal: controller.signal, onprogress: () => firstProgress(), timeout: 120_000 }
        )
        .then(
          () => 'finished',
          () => 'rejected'
        );
      await progressed;
      controller.abort(new Error('cancelled by the target check'));
      if ((await long) !== 'rejected') throw new Error('the cancelled call was not ended by its abort');
      const added = await client.callTool({ name: 'notes.add', arguments: { text: 'after the cancel' } });
      if (added.isError) throw new Error(`notes.add after the cancel failed: ${textOf(added)}`);
      const after = await noteCount(client);
      // The import stopped midway: fewer than all its notes (plus the one added) were written.
      if (after - before >= LONG_IMPORT + 1) throw new Error(`the cancelled import ran to its end (${after - before} notes added)`);
      if (after - before < 2) throw new Error(`expected the first imported note and the added one, found ${after - before} new notes`);
    });

    await step('a question answered', async () => {
      const count = await noteCount(client);
      const result = await client.callTool({ name: 'notes.clear', arguments: {} });
      if (result.isError) throw new Error(`notes.clear failed: ${textOf(result)}`);
      if (!asked.some((message) => /^Delete all \d+ notes\?$/.test(message)))
        throw new Error(`the question was not asked (asked: ${JSON.stringify(asked)})`);
      // Another era's run may have added notes in between on a shared server: the answer counts what it deleted.
      if (!/^Deleted \d+ notes\.$/.test(textOf(result)) || count === 0) throw new Error(`unexpected answer: ${textOf(result)}`);
    });
  } finally {
    await client.close();
  }
}

/**
 * A request with a Host header the target does not serve (DNS rebinding) is refused with 403,
 * before any handler runs. Sent with node:http, which (unlike fetch) lets a test set Host.
 */
export function expectBadHostRefused(url: URL, host = 'rebind.attacker.example'): Promise<void> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: {} });
  return new Promise<void>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          host,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'content-length': Buffer.byteLength(body)
        }
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          if (res.statusCode === 403) resolve();
          else reject(new Error(`a request for Host ${host} was answered ${String(res.statusCode)}, not 403: ${text.slice(0, 300)}`));
        });
      }
    );
    req.on('error', reject);
    req.end(body);
  });
}
