import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StandardSchemaV1 } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { FusionApp, skills } from '../../src';
import { SKILLS_EXTENSION } from '../../src/advanced';
import { connectTestClient } from '../../src/testing';
import { DeskTools, Probe } from '../fixtures/desk-tools';
import { recordWire } from '../helpers/wire-log';

const ERAS = ['modern', 'legacy-http', 'legacy-memory'] as const;
const SAMPLE_SKILLS = join(__dirname, '..', '..', 'sample-app', 'skills');
const ANY: StandardSchemaV1 = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } };

function sha256(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

function skillsApp(folder = SAMPLE_SKILLS, pageSize?: number) {
  return FusionApp.create({ tools: [DeskTools], providers: [Probe], extensions: [skills({ folder, ...(pageSize ? { pageSize } : {}) })] });
}

/** A folder of skills written for one test. */
function folderOf(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'skills-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const skillMd = (name: string, extra = '') => `---\nname: ${name}\ndescription: The ${name} skill\n${extra}---\n\n# ${name}\n`;

describe('the Skills extension (SEP-2640) through a real SDK client', () => {
  for (const era of ERAS) {
    it(`${era}: advertises the extension, lists the sample skill, and every file verifies against its entry`, async () => {
      const app = skillsApp();
      const { client, close } = await connectTestClient(app, { era });
      expect(client.getServerCapabilities()?.extensions?.[SKILLS_EXTENSION]).toEqual({ directoryRead: true });
      const host = new SkillsClient(client);
      expect(host.supported).toBe(true);
      const listing = await host.list();
      expect(listing.skills).toHaveLength(1);
      const [skill] = listing.skills;
      expect(skill!.uri).toBe('skill://refund-request/SKILL.md');
      // The front matter verbatim: every field the author wrote.
      expect(skill!.frontmatter).toEqual({
        name: 'refund-request',
        description: expect.stringContaining('refund request'),
        license: 'MIT',
        metadata: { desk: 'billing', version: '1.0' }
      });
      const onDisk = readFileSync(join(SAMPLE_SKILLS, 'refund-request', 'SKILL.md'));
      expect(skill!.resources).toEqual([
        { uri: 'skill://refund-request/SKILL.md', digest: sha256(onDisk), size: onDisk.length },
        {
          uri: 'skill://refund-request/examples/reply.md',
          digest: sha256(readFileSync(join(SAMPLE_SKILLS, 'refund-request', 'examples', 'reply.md'))),
          size: expect.any(Number)
        }
      ]);
      // SkillsClient.read checks size, digest and (for SKILL.md) the front matter against the entry.
      const main = await host.read(skill!);
      expect(main.verified).toBe(true);
      expect(main.body).toContain('billing.refund');
      expect((await host.read(skill!, 'examples/reply.md')).verified).toBe(true);
      const got = await host.get(skill!.uri);
      expect(got.skill).toEqual(skill);
      if (era === 'modern') expect(got).toMatchObject({ ttlMs: 300_000, cacheScope: 'public' });
      const root = await host.readDirectory('skill://refund-request');
      expect(root.resources).toEqual([
        { uri: 'skill://refund-request/SKILL.md', name: 'SKILL.md', mimeType: 'text/markdown' },
        { uri: 'skill://refund-request/examples', name: 'examples', mimeType: 'inode/directory' }
      ]);
      await close();
      await app.close();
    });
  }

  it('modern: skills/list answers resultType "complete" with ttlMs and cacheScope on the wire', async () => {
    const app = skillsApp();
    const { client, close } = await connectTestClient(app);
    const wire = recordWire(client);
    await client.request({ method: 'skills/list', params: {} }, ANY);
    expect(wire.find((m) => m.result !== undefined)?.result).toMatchObject({
      resultType: 'complete',
      ttlMs: 300_000,
      cacheScope: 'public'
    });
    await close();
    await app.close();
  });

  for (const era of ['modern', 'legacy-http'] as const) {
    it(`${era}: an unknown skill, a non-directory and a forged cursor are -32602; an unknown file is not found`, async () => {
      const app = skillsApp();
      const { client, close } = await connectTestClient(app, { era });
      await expect(client.request({ method: 'skills/get', params: { uri: 'skill://chargebacks/SKILL.md' } }, ANY)).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('No skill is served at skill://chargebacks/SKILL.md')
      });
      await expect(client.request({ method: 'skills/get', params: {} }, ANY)).rejects.toMatchObject({ code: -32602 });
      await expect(
        client.request({ method: 'resources/directory/read', params: { uri: 'skill://refund-request/SKILL.md' } }, ANY)
      ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('not a directory') });
      await expect(client.request({ method: 'skills/list', params: { cursor: 'forged' } }, ANY)).rejects.toMatchObject({ code: -32602 });
      await expect(client.readResource({ uri: 'skill://refund-request/missing.md' })).rejects.toMatchObject({
        code: era === 'modern' ? -32602 : expect.any(Number)
      });
      // Files are served from what was read at start, by exact URI: a dotted path reaches nothing on disk.
      for (const uri of ['skill://refund-request/../../package.json', 'skill://refund-request/examples/../SKILL.md', 'skill://']) {
        await expect(client.readResource({ uri })).rejects.toMatchObject({ code: era === 'modern' ? -32602 : expect.any(Number) });
      }
      // The server is still up.
      expect((await client.callTool({ name: 'echo', arguments: { text: 'ok' } })).isError).toBeFalsy();
      await close();
      await app.close();
    });
  }

  it('pages skills/list: every skill once across pages, each entry whole', async () => {
    const folder = folderOf({
      'alpha/SKILL.md': skillMd('alpha'),
      'beta/SKILL.md': skillMd('beta'),
      'team/gamma/SKILL.md': skillMd('gamma')
    });
    const app = skillsApp(folder, 2);
    const { client, close } = await connectTestClient(app);
    const first = (await client.request({ method: 'skills/list', params: {} }, ANY)) as { skills: { uri: string }[]; nextCursor?: string };
    expect(first.skills.map((s) => s.uri)).toEqual(['skill://alpha/SKILL.md', 'skill://beta/SKILL.md']);
    const second = (await client.request({ method: 'skills/list', params: { cursor: first.nextCursor } }, ANY)) as typeof first;
    expect(second.skills.map((s) => s.uri)).toEqual(['skill://team/gamma/SKILL.md']);
    expect(second.nextCursor).toBeUndefined();
    expect((await new SkillsClient(client).list()).skills).toHaveLength(3);
    await close();
    await app.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('refuses to start with a skill whose name is not its folder, bad front matter, or over the file limit, naming each file', async () => {
    const files: Record<string, string> = {
      'wrong/SKILL.md': skillMd('other'),
      'broken/SKILL.md': '# no front matter\n',
      'nodesc/SKILL.md': '---\nname: nodesc\n---\n'
    };
    for (let i = 0; i < 512; i++) files[`big/files/f${i}.txt`] = 'x';
    files['big/SKILL.md'] = skillMd('big');
    const folder = folderOf(files);
    const app = skillsApp(folder);
    const failure = app.listen({ transport: 'http', port: 0, handleSignals: false });
    await expect(failure).rejects.toThrow(/wrong[/\\]SKILL\.md: its name "other" must be its folder's name "wrong"/);
    await expect(failure).rejects.toThrow(/broken[/\\]SKILL\.md: SKILL\.md must begin with YAML front matter/);
    await expect(failure).rejects.toThrow(/nodesc[/\\]SKILL\.md: .*needs a description/);
    await expect(failure).rejects.toThrow(/more than the 512 files a skill may have/);
    await app.close();
    rmSync(folder, { recursive: true, force: true });
  });
});
