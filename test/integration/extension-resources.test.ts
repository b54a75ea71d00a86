import { join } from 'node:path';
import { FusionApp, jwtVerifier, skills } from '../../src';
import { InProcessCallQueue, type FusionExtension } from '../../src/advanced';
import { connectTestClient } from '../../src/testing';
import { DeskTools, Probe } from '../fixtures/desk-tools';
import { until } from '../helpers/wire-log';
import { AUDIENCE, ISSUER, jwksOf, mintToken, signingKey } from '../helpers/auth-fixtures';
import { modernRequest, postRaw } from '../helpers/raw-http';

const SAMPLE_SKILLS = join(__dirname, '..', '..', 'sample-app', 'skills');

/** An extension serving notes://… resources whose reads wait for their abort (notes://1: or until the test lets it go). */
function notesExtension() {
  const entered: string[] = [];
  const aborted: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const extension: FusionExtension = {
    id: 'com.example/notes',
    resources: {
      owns: (uri) => uri.startsWith('notes://'),
      read: async (uri, request) => {
        entered.push(uri);
        await new Promise<void>((resolve) => {
          if (uri === 'notes://1') void released.then(resolve);
          request.signal.addEventListener('abort', () => (aborted.push(uri), resolve()), { once: true });
        });
        return { contents: [{ uri, text: `note ${uri}` }] };
      }
    }
  };
  return { extension, entered, aborted, release };
}

describe('resources an extension serves run through a chain like any resource', () => {
  it('modern: the app middleware sees a skill file read, named by its extension, the URI its subject', async () => {
    const seen: string[] = [];
    const app = FusionApp.create({
      tools: [DeskTools],
      providers: [{ provide: Probe, useValue: new Probe() }],
      middleware: [async (ctx, next) => (seen.push(`${ctx.tool.kind}:${ctx.tool.name}`), next())],
      extensions: [skills({ folder: SAMPLE_SKILLS })]
    });
    const { client, close } = await connectTestClient(app);
    const read = await client.readResource({ uri: 'skill://refund-request/SKILL.md' });
    expect((read.contents[0] as { text: string }).text).toContain('billing.refund');
    expect(seen).toEqual(['resource:io.modelcontextprotocol/skills resources']);
    // An unknown skill file is still the extension's answer (-32602), through the same chain.
    await expect(client.readResource({ uri: 'skill://nope/SKILL.md' })).rejects.toMatchObject({ code: -32602 });
    await close();
    await app.close();
  });

  for (const era of ['modern', 'legacy-memory'] as const) {
    it(`${era}: an extension's read holds a queue slot (the next call waits for it) and sees the call's signal`, async () => {
      const queue = new InProcessCallQueue({ maxActive: 1 });
      const notes = notesExtension();
      const app = FusionApp.create({
        tools: [DeskTools],
        providers: [{ provide: Probe, useValue: new Probe() }],
        concurrency: { queue },
        extensions: [notes.extension]
      });
      const { client, close } = await connectTestClient(app, { era });
      const first = client.readResource({ uri: 'notes://1' });
      await until(() => notes.entered.length === 1, 'the first read to start');
      expect(queue.active).toBe(1);
      let echoed = false;
      const echo = client.callTool({ name: 'echo', arguments: { text: 'hi' } }).then((r) => ((echoed = true), r));
      await until(() => queue.waiting === 1, 'the tool call to wait for the slot');
      expect(echoed).toBe(false);
      notes.release();
      expect(await first).toMatchObject({ contents: [{ uri: 'notes://1', text: 'note notes://1' }] });
      await echo;
      expect(queue.active).toBe(0);
      // A cancelled read aborts the extension's signal, and its slot is free afterwards.
      const cancel = new AbortController();
      const second = client.readResource({ uri: 'notes://2' }, { signal: cancel.signal });
      await until(() => notes.entered.length === 2, 'the second read to start');
      cancel.abort();
      await expect(second).rejects.toThrow();
      await until(() => notes.aborted.includes('notes://2'), "the extension's signal to abort");
      await client.callTool({ name: 'echo', arguments: { text: 'after' } });
      expect(queue.active).toBe(0);
      await close();
      await app.close();
    });
  }

  it('refuses resources.scopes that are not scope names, at startup', () => {
    const { extension } = notesExtension();
    const bad = { ...extension, resources: { ...extension.resources!, scopes: ['notes:read', ''] } };
    expect(() => FusionApp.create({ tools: [], extensions: [bad] })).toThrow(/resources\.scopes must be an array of scope names/);
  });

  it('modern, HTTP with auth: a read of an extension resource needs its resources.scopes (403 naming them), like any resource', async () => {
    const key = await signingKey('ext-resources');
    const notes = notesExtension();
    notes.release();
    const app = FusionApp.create({
      tools: [DeskTools],
      providers: [{ provide: Probe, useValue: new Probe() }],
      extensions: [{ ...notes.extension, resources: { ...notes.extension.resources!, scopes: ['notes:read'] } }],
      auth: {
        verifier: jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: jwksOf(key) }),
        resource: AUDIENCE,
        authorizationServers: [ISSUER]
      }
    });
    const { url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL };
    try {
      const read = modernRequest('resources/read', { uri: 'notes://1' });
      const refused = await postRaw(url, read.body, {
        ...read.headers,
        authorization: `Bearer ${await mintToken(key, { sub: 'a', scope: 'other' })}`
      });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('www-authenticate')).toContain('scope="notes:read"');
      expect(notes.entered).toEqual([]);
      const allowed = await postRaw(url, read.body, {
        ...read.headers,
        authorization: `Bearer ${await mintToken(key, { sub: 'a', scope: 'notes:read' })}`
      });
      expect(allowed.status).toBe(200);
      expect(notes.entered).toEqual(['notes://1']);
    } finally {
      await app.close();
    }
  });
});
