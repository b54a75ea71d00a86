import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Readable } from 'node:stream';

/**
 * A developer's bug is told to the server's own log, not only to the client: the buggy fixture
 * runs as a child process over stdio with the default logger, and its stderr is read here.
 */
const command = process.execPath;
const args = ['-r', 'ts-node/register/transpile-only', 'test/fixtures/buggy-tools-server.ts'];
const text = (result: { content?: unknown }) => (result.content as { text: string }[])[0].text;

async function connect(env: Record<string, string>, pin?: '2026-07-28') {
  const client = new Client({ name: 'server-log', version: '1' }, pin ? { versionNegotiation: { mode: { pin } } } : {});
  const transport = new StdioClientTransport({
    command,
    args,
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'pipe'
  });
  let stderr = '';
  (transport.stderr as Readable).on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** The child's stderr once it holds `what` (the log line is written before the response, so it is there already). */
function logged(stderr: () => string, what: string): string {
  const all = stderr();
  const line = all.split(/^\[mcpfusion\] /m).find((entry) => entry.includes(what));
  if (!line) throw new Error(`no log entry with ${JSON.stringify(what)} in:\n${all}`);
  return line;
}

describe("the server's stderr tells a developer's bug (the tool, the call's id, the stack)", () => {
  for (const pin of [undefined, '2026-07-28'] as const) {
    const era = pin ?? '2025-11-25';

    it(`${era}: an unexpected exception is logged with the stack; the client reads the message only`, async () => {
      const { client, stderr } = await connect({}, pin);
      try {
        const result = await client.callTool({ name: 'books.crash', arguments: {} });
        expect(result.isError).toBe(true);
        expect(text(result)).toMatch(/^Cannot read properties of undefined/);
        expect(text(result)).not.toContain('    at ');
        const entry = logged(stderr, 'tool books.crash failed');
        expect(entry).toMatch(/^tool books\.crash failed \(call \d+\) with an unexpected exception/);
        expect(entry).toContain('TypeError: Cannot read properties of undefined');
        expect(entry).toMatch(/\n\s+at BuggyTools\.crash /);
      } finally {
        await client.close();
      }
    }, 30_000);

    it(`${era}: an output mismatch is logged with the tool, the call's id and the stack`, async () => {
      const { client, stderr } = await connect({}, pin);
      try {
        const result = await client.callTool({ name: 'books.get', arguments: {} });
        expect(result.isError).toBe(true);
        expect(text(result)).toContain('Tool books.get declares output BookView but returned an object that does not match it');
        expect(text(result)).not.toContain('    at ');
        const entry = logged(stderr, 'tool books.get failed');
        expect(entry).toMatch(/^tool books\.get failed \(call \d+\): OutputMismatchError: Tool books\.get declares output BookView/);
        expect(entry).toContain('id: id must be an integer, not a string');
        expect(entry).toMatch(/\n\s+at /);
      } finally {
        await client.close();
      }
    }, 30_000);
  }

  it('with maskErrors: the client reads a reference, the log has the same reference and the stack', async () => {
    const { client, stderr } = await connect({ FUSION_MASK: '1' });
    try {
      const result = await client.callTool({ name: 'books.crash', arguments: {} });
      const reference = /reference ([0-9a-f]{8})/.exec(text(result))![1];
      expect(text(result)).not.toContain('Cannot read');
      const entry = logged(stderr, `reference ${reference}`);
      expect(entry).toMatch(/^tool books\.crash failed \(call \d+\) \(reference [0-9a-f]{8}\): TypeError: Cannot read properties/);
      expect(entry).toMatch(/\n\s+at BuggyTools\.crash /);
      expect(stderr().split('books.crash failed').length - 1).toBe(1);
    } finally {
      await client.close();
    }
  }, 30_000);
});
