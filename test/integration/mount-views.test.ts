/**
 * A mounted app's views (MCP Apps) are the parent's too: served at `ui://<namespace>/…` (views keep
 * the scheme hosts require), listed with the parent's resources, read through the mount's home (a
 * document made per read gets the call's context), and the mounted tools' view links rewritten to
 * match; a view URI held twice is refused at startup naming both. Through a real SDK client.
 */
import { FusionApp, mount, view } from '../../src';
import { UI_EXTENSION, VIEW_MIME_TYPE } from '../../src/advanced';
import { connectTestClient } from '../../src/testing';
import { VIEWS, ViewTools } from '../fixtures/view-tools';

describe('mounting an app with views', () => {
  it.each(['modern', 'legacy-memory'] as const)('%s: serves its views under the namespace and links its tools to them', async (era) => {
    const desk = FusionApp.create({ name: 'desk', version: '1.0.0', tools: [ViewTools], views: VIEWS });
    const app = FusionApp.create({ name: 'parent', version: '1.0.0', tools: [], mounts: [mount('ledger', desk)] });
    const { client, close } = await connectTestClient(app, { era });
    // The app serves views (its mount's), so it says so.
    expect((client.getServerCapabilities() as { extensions?: Record<string, unknown> })?.extensions?.[UI_EXTENSION]).toBeDefined();
    const tools = (await client.listTools()).tools;
    expect(tools.find((t) => t.name === 'ledger.desk.list')?._meta).toMatchObject({
      ui: { resourceUri: 'ui://ledger/desk/main' },
      'ui/resourceUri': 'ui://ledger/desk/main'
    });
    const listed = (await client.listResources()).resources.filter((r) => r.uri.startsWith('ui://'));
    expect(listed.map((r) => r.uri).sort()).toEqual(VIEWS.map((v) => v.uri.replace('ui://', 'ui://ledger/')).sort());
    expect(listed.every((r) => r.mimeType === VIEW_MIME_TYPE)).toBe(true);
    for (const { uri } of listed) {
      const read = await client.readResource({ uri });
      expect(read.contents[0]).toMatchObject({ uri, mimeType: VIEW_MIME_TYPE });
      expect((read.contents[0] as { text: string }).text).toMatch(/^\s*<!doctype html>/i);
    }
    // The view under its own name is not the parent's.
    await expect(client.readResource({ uri: 'ui://desk/main' })).rejects.toThrow();
    await close();
    await app.close();
    await desk.close();
  });

  it('refuses a view URI held by the app and by a mount, naming both', async () => {
    const desk = FusionApp.create({ name: 'desk', version: '1.0.0', tools: [ViewTools], views: VIEWS });
    const clash = view({ uri: 'ui://ledger/desk/main', name: 'mine', html: '<!DOCTYPE html><html><body>Mine</body></html>' });
    expect(() =>
      FusionApp.create({ name: 'parent', version: '1.0.0', tools: [], views: [clash], mounts: [mount('ledger', desk)] })
    ).toThrow(/view ui:\/\/ledger\/desk\/main is both the app's and ui:\/\/desk\/main of the app mounted under ledger/);
    await desk.close();
  });
});
