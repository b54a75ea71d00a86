import type { StandardSchemaV1 } from '@modelcontextprotocol/client';
import { ConfigurationError, FusionApp } from '../../src';
import type { FusionExtension } from '../../src/advanced';
import { InvalidParamsError } from '../../src/advanced';
import { connectTestClient } from '../../src/testing';
import { DeskTools, Probe } from '../fixtures/desk-tools';

const ANY: StandardSchemaV1 = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } };
const ERAS = ['modern', 'legacy-http', 'legacy-memory'] as const;
const CLOCK = 'com.example/clock';

/** A small extension written in the API, recording what it saw. */
function clockExtension(seen: string[], requiresOptIn = false): FusionExtension {
  return {
    id: CLOCK,
    settings: { precision: 'ms' },
    requiresOptIn,
    methods: {
      'clock/now': (request) => {
        if (request.params.zone !== undefined && typeof request.params.zone !== 'string')
          throw new InvalidParamsError('zone must be a string');
        return { now: 1_700_000_000_000, optedIn: request.clientSettings ?? null, era: request.era };
      }
    },
    steps: {
      outer: [async (ctx, next) => (seen.push(`outer>${ctx.tool.name}`), next())],
      inner: [async (_ctx, next) => (seen.push('inner'), next())]
    },
    start: () => void seen.push('start'),
    stop: () => void seen.push('stop')
  };
}

function appWith(extensions: FusionExtension[], seen: string[] = []) {
  return FusionApp.create({
    tools: [DeskTools],
    providers: [{ provide: Probe, useValue: new Probe() }],
    middleware: [async (_ctx, next) => (seen.push('app'), next())],
    extensions
  });
}

describe('the extension API through a real SDK client', () => {
  for (const era of ERAS) {
    it(`${era}: advertises the settings, serves the method with the client's opt-in, places its middleware, starts and stops once`, async () => {
      const seen: string[] = [];
      const app = appWith([clockExtension(seen)], seen);
      const { client, close } = await connectTestClient(app, { era, capabilities: { extensions: { [CLOCK]: { zone: 'utc' } } } as never });
      expect(client.getServerCapabilities()?.extensions).toEqual({ [CLOCK]: { precision: 'ms' } });
      const answer = (await client.request({ method: 'clock/now', params: {} }, ANY)) as Record<string, unknown>;
      expect(answer).toMatchObject({ now: 1_700_000_000_000, optedIn: { zone: 'utc' }, era: era === 'modern' ? 'modern' : 'legacy' });
      await client.request({ method: 'clock/now', params: {} }, ANY);
      await expect(client.request({ method: 'clock/now', params: { zone: 5 } }, ANY)).rejects.toMatchObject({ code: -32602 });
      await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
      // outer → the app's own middleware → inner, around every member's chain.
      expect(seen).toEqual(['start', 'outer>echo', 'app', 'inner']);
      await close();
      await app.close();
      await app.close();
      expect(seen.filter((s) => s === 'start' || s === 'stop')).toEqual(['start', 'stop']);
    });
  }

  it('modern: an extension that requires opt-in refuses a request whose client did not declare it (-32021)', async () => {
    const app = appWith([clockExtension([], true)]);
    const { client, close } = await connectTestClient(app);
    await expect(client.request({ method: 'clock/now', params: {} }, ANY)).rejects.toMatchObject({ code: -32021 });
    await close();
    await app.close();
  });

  it('refuses malformed and reserved ids, core methods and a method served twice, all at once', () => {
    const build = () =>
      appWith([
        { id: 'clock' },
        { id: 'io.modelcontextprotocol/clock' },
        { id: 'dev.mcp/x' },
        { id: '1com.example/x' },
        { id: 'com.example/-x' },
        { id: 'com.example/a', methods: { 'tools/call': () => ({}), 'notifications/x': () => ({}), 'a/b': () => ({}) } },
        { id: 'com.example/b', methods: { 'a/b': () => ({}) } },
        { id: 'com.example/b' }
      ]);
    expect(build).toThrow(ConfigurationError);
    let message = '';
    try {
      build();
    } catch (error) {
      message = (error as Error).message;
    }
    for (const expected of [
      'extension id "clock" must be "{vendor-prefix}/{name}"',
      'prefix "io.modelcontextprotocol/", reserved for MCP',
      'prefix "dev.mcp/", reserved for MCP',
      'extension id "1com.example/x": each label',
      'extension id "com.example/-x": the name',
      'may not serve tools/call: it is a core method',
      'may not serve notifications/x',
      'extensions com.example/a and com.example/b both serve a/b',
      'extension com.example/b is given twice'
    ]) {
      expect(message).toContain(expected);
    }
    // The official extensions' own ids are allowed (the framework's skills, tasks and views use them).
    expect(() => appWith([{ id: 'io.modelcontextprotocol/skills' }, { id: 'com.example.mcp/fine' }])).not.toThrow();
  });
});
