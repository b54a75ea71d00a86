import { CliError, ExitCode } from '../../../packages/cli/src/cli-error';
import type { Connection } from '../../../packages/cli/src/connection';
import { inspectServer } from '../../../packages/cli/src/inspect-command';
import { listEvery } from '../../../packages/cli/src/paged-list';

/** A client whose list methods answer from `pages[method][cursor ?? '']`; it records what was asked. */
function fakeConnection(capabilities: Record<string, unknown>, pages: Record<string, Record<string, unknown>>) {
  const asked: string[] = [];
  const client = {
    getServerCapabilities: () => capabilities,
    getServerVersion: () => ({ name: 'fake', version: '2.0.0', title: 'Fake server' }),
    getInstructions: () => undefined,
    getProtocolEra: () => 'legacy',
    request: async ({ method, params }: { method: string; params: { cursor?: string } }) => {
      asked.push(`${method} ${params.cursor ?? ''}`.trim());
      return pages[method]?.[params.cursor ?? ''] ?? {};
    }
  };
  return { connection: { client, protocolVersion: '2025-11-25' } as unknown as Connection, asked };
}

describe('listEvery', () => {
  it('follows nextCursor through every page, keeping the items as sent', async () => {
    const { connection, asked } = fakeConnection(
      {},
      {
        'prompts/list': {
          '': { prompts: [{ name: 'a' }], nextCursor: 'p2' },
          p2: { prompts: [{ name: 'b', _meta: { x: 1 } }, 'not an object', null], nextCursor: 'p3' },
          p3: { prompts: [{ name: 'c' }] }
        }
      }
    );
    expect(await listEvery(connection, { method: 'prompts/list', key: 'prompts' })).toEqual([
      { name: 'a' },
      { name: 'b', _meta: { x: 1 } },
      { name: 'c' }
    ]);
    expect(asked).toEqual(['prompts/list', 'prompts/list p2', 'prompts/list p3']);
  });

  it('a cursor seen twice is a protocol error, not an endless loop', async () => {
    const { connection } = fakeConnection(
      {},
      { 'tools/list': { '': { tools: [], nextCursor: 'x' }, x: { tools: [{ name: 't' }], nextCursor: 'x' } } }
    );
    const failure = listEvery(connection, { method: 'tools/list', key: 'tools' });
    await expect(failure).rejects.toThrow(CliError);
    await expect(failure).rejects.toMatchObject({
      exitCode: ExitCode.PROTOCOL_ERROR,
      message: expect.stringContaining('cursor "x" twice')
    });
  });
});

describe('inspectServer', () => {
  it('asks only for the lists the server has a capability for; the others are empty', async () => {
    const { connection, asked } = fakeConnection(
      { tools: {} },
      { 'tools/list': { '': { tools: [{ name: 'only', inputSchema: { type: 'object' } }] } } }
    );
    expect(await inspectServer(connection)).toEqual({
      server: { name: 'fake', version: '2.0.0', title: 'Fake server' },
      protocolVersion: '2025-11-25',
      era: 'legacy',
      capabilities: { tools: {} },
      extensions: {},
      tools: [{ name: 'only', inputSchema: { type: 'object' } }],
      prompts: [],
      resources: [],
      resourceTemplates: []
    });
    expect(asked).toEqual(['tools/list']);
  });

  it('reads resources and their templates, page by page, and the extensions from the capabilities', async () => {
    const { connection } = fakeConnection(
      { resources: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } },
      {
        'resources/list': { '': { resources: [{ uri: 'a://1' }], nextCursor: 'n' }, n: { resources: [{ uri: 'a://2' }] } },
        'resources/templates/list': { '': { resourceTemplates: [{ uriTemplate: 'a://{id}' }] } }
      }
    );
    const inspection = await inspectServer(connection);
    expect(inspection.resources).toEqual([{ uri: 'a://1' }, { uri: 'a://2' }]);
    expect(inspection.resourceTemplates).toEqual([{ uriTemplate: 'a://{id}' }]);
    expect(inspection.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });
    expect(inspection.tools).toEqual([]);
  });
});
