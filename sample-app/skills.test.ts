import { createHash } from 'node:crypto';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { connectTestClient } from '@mcpfusion/core/testing';
import { useBillingApp } from './test-helpers';

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
