import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { connectTestClient } from '@mcpfusion/core/testing';
import { TEST_STATE_KEY, tempDb, useBillingApp } from './test-helpers';
import { createBillingApp } from './app';

const MAIN = join(__dirname, '..', 'build', 'sample-app', 'main.js');

const ERAS = ['modern', 'legacy-http', 'legacy-memory'] as const;
const SKILL = 'skill://refund-request/SKILL.md';

describe('the billing desk serves its refund skill (Skills extension)', () => {
  const desk = useBillingApp();

  for (const era of ERAS) {
    test(`${era}: skills/list and skills/get return the refund skill; each digest matches the bytes resources/read gives`, async () => {
      const { client, close } = await connectTestClient(desk.app, { era });
      try {
        const skills = new SkillsClient(client);
        const { skills: listed } = await skills.list();
        expect(listed.map((s) => s.uri)).toEqual([SKILL]);
        const { skill } = await skills.get(SKILL);
        expect(skill).toEqual(listed[0]);
        expect(skill.frontmatter.name).toBe('refund-request');
        // The skill names the desk's own tools.
        const tools = (await client.listTools()).tools.map((t) => t.name);
        const body = (await skills.read(skill)).body ?? '';
        for (const tool of ['billing.invoice', 'billing.list', 'billing.refund']) {
          expect(tools).toContain(tool);
          expect(body).toContain(tool);
        }
        // Checked here by hand too: the digest and size of each file are those of the bytes resources/read gives.
        for (const file of skill.resources as { uri: string; digest: string; size: number }[]) {
          const read = await client.readResource({ uri: file.uri });
          const bytes = Buffer.from((read.contents[0] as { text: string }).text, 'utf8');
          expect(bytes.length).toBe(file.size);
          expect(`sha256:${createHash('sha256').update(bytes).digest('hex')}`).toBe(file.digest);
        }
      } finally {
        await close();
      }
    });
  }
});

describe('the refund skill from the compiled desk and over real HTTP', () => {
  for (const era of ['legacy', 'modern'] as const) {
    test(`${era}: node build/sample-app/main.js --stdio serves the skill (its folder found from the build)`, async () => {
      if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: compile first (npm run compile)`);
      const db = tempDb();
      const client = new Client(
        { name: 'skills-test', version: '1' },
        era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}
      );
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [MAIN, '--stdio'],
        env: { ...(process.env as Record<string, string>), BILLING_DB: db.path, FUSION_STATE_KEY: TEST_STATE_KEY },
        stderr: 'pipe'
      });
      try {
        await client.connect(transport);
        const skills = new SkillsClient(client);
        const { skills: listed } = await skills.list();
        expect(listed.map((s) => s.uri)).toEqual([SKILL]);
        expect((await skills.read(listed[0]!)).verified).toBe(true);
      } finally {
        await client.close();
        db.remove();
      }
    }, 30_000);
  }

  test('modern: listen() on 127.0.0.1 starts the extension before serving', async () => {
    const db = tempDb();
    const app = createBillingApp({ dbPath: db.path, stateKey: TEST_STATE_KEY });
    const listening = await app.listen({ transport: 'http', port: 0, handleSignals: false });
    const client = new Client({ name: 'skills-test', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      await client.connect(new StreamableHTTPClientTransport(listening.url!));
      const { skill } = await new SkillsClient(client).get(SKILL);
      expect(skill.frontmatter).toMatchObject({ name: 'refund-request', license: 'MIT' });
    } finally {
      await client.close();
      await app.close();
      db.remove();
    }
  });
});
