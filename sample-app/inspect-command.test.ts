import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { ChildServers } from '../test/helpers/child-servers';
import { CLI_BIN } from '../test/helpers/cli-bin';
import { createBillingApp } from './app';
import { TEST_STATE_KEY, tempDb, type TempDb } from './test-helpers';

/**
 * `mcpfusion inspect --json`, end to end: the compiled binary (package.json `bin`, from
 * `npm run compile`) against the sample app over HTTP on 127.0.0.1 in both eras and over
 * --stdio, and against the stdio fixture (tools, no prompts or resources). The JSON it prints is parsed and checked.
 */

const ROOT = join(__dirname, '..');
const BIN = CLI_BIN;
const SAMPLE = join(ROOT, 'build', 'sample-app', 'main.js');
const FIXTURE = join(ROOT, 'build', 'test', 'fixtures', 'stdio-server.js');

interface Inspection {
  server: { name: string; version: string };
  protocolVersion: string;
  era: string;
  capabilities: Record<string, unknown>;
  extensions: Record<string, unknown>;
  tools: Array<{ name: string; inputSchema: object; outputSchema?: object; annotations?: object; _meta?: Record<string, unknown> }>;
  prompts: Array<{ name: string; arguments?: Array<{ name: string; required?: boolean }> }>;
  resources: Array<{ uri: string }>;
  resourceTemplates: Array<{ uriTemplate: string }>;
}

const run = async (args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> => {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number];
  return { code, stdout, stderr };
};

describe('mcpfusion inspect --json against the sample app', () => {
  const servers = new ChildServers();
  let db: TempDb;
  let url: string;
  const env = (): NodeJS.ProcessEnv => ({ BILLING_DB: db.path, FUSION_STATE_KEY: TEST_STATE_KEY });

  beforeAll(async () => {
    db = tempDb();
    // Seeds the file first, so the server spawned over stdio finds it ready.
    await createBillingApp({ dbPath: db.path, stateKey: TEST_STATE_KEY }).close();
    url = (await servers.start([SAMPLE], { PORT: '0', ...env() }, /listening on (\S+)/)).href;
  });
  afterAll(async () => {
    await servers.stopAll();
    db?.remove();
  });

  const targets: Array<[string, () => string[], string, string]> = [
    ['HTTP, --era 2026', () => [url, '--era', '2026'], '2026-07-28', 'modern'],
    ['HTTP, --era 2025', () => [url, '--era', '2025'], '2025-11-25', 'legacy'],
    ['--stdio', () => ['--stdio', `node ${SAMPLE} --stdio`], '2026-07-28', 'modern']
  ];

  it.each(targets)(
    '%s: one JSON document with identity, era, capabilities, tools, prompts, resources and templates',
    async (_, target, version, era) => {
      const { code, stdout, stderr } = await run(['inspect', ...target(), '--json'], env());
      expect([code, stderr]).toEqual([0, '']);
      const inspection = JSON.parse(stdout) as Inspection;
      expect(inspection).toMatchObject({ server: { name: 'billing-desk', version: '1.0.0' }, protocolVersion: version, era });
      expect(inspection.capabilities).toMatchObject({
        tools: expect.any(Object),
        prompts: expect.any(Object),
        resources: expect.any(Object)
      });
      expect(inspection.tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['billing.refund', 'billing.list', 'reports.rebuild'])
      );
      const refund = inspection.tools.find((tool) => tool.name === 'billing.refund')!;
      expect(refund.inputSchema).toMatchObject({ required: ['id'] });
      expect(refund.outputSchema).toMatchObject({ type: 'object' });
      expect(refund.annotations).toMatchObject({ destructiveHint: true });
      expect(inspection.tools.find((tool) => tool.name === 'billing.list')?._meta).toMatchObject({
        ui: { resourceUri: 'ui://billing/invoice-desk' }
      });
      expect(inspection.prompts).toEqual([
        expect.objectContaining({
          name: 'billing.collections_letter',
          arguments: [
            expect.objectContaining({ name: 'customer', required: true }),
            expect.objectContaining({ name: 'tone', required: false })
          ]
        })
      ]);
      expect(inspection.resources.length).toBeGreaterThan(0);
      expect(inspection.resources.every((resource) => typeof resource.uri === 'string')).toBe(true);
      expect(inspection.resourceTemplates.map((template) => template.uriTemplate)).toContain('billing://invoices/{id}');
      if (era === 'modern') expect(Object.keys(inspection.extensions)).toContain('io.modelcontextprotocol/tasks');
    }
  );

  it('without --json: a short summary of the same', async () => {
    const { code, stdout } = await run(['inspect', url, '--era', '2026']);
    expect(code).toBe(0);
    expect(stdout).toContain('billing-desk 1.0.0 (protocol 2026-07-28, modern)');
    expect(stdout).toMatch(/\d+ tools, 1 prompt, \d+ resources, 1 resource template/);
  });

  it('a server with no prompts or resources (the stdio fixture): empty lists, not an error', async () => {
    const { code, stdout } = await run(['inspect', '--stdio', `node ${FIXTURE}`, '--json']);
    expect(code).toBe(0);
    const inspection = JSON.parse(stdout) as Inspection;
    expect(inspection.server.name).toBe('stdio-fixture');
    expect(inspection.tools.map((tool) => tool.name)).toEqual(['echo', 'count', 'hang']);
    expect([inspection.prompts, inspection.resources, inspection.resourceTemplates]).toEqual([[], [], []]);
  });

  it('a server that cannot be reached is a protocol error (exit 2)', async () => {
    const { code, stdout, stderr } = await run(['inspect', 'http://127.0.0.1:1/mcp', '--json']);
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr).toContain('could not connect to http://127.0.0.1:1/mcp');
  });
});
