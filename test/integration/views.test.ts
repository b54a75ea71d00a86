import { readFileSync } from 'node:fs';
import { FusionApp } from '../../src';
import { UI_EXTENSION, VIEW_MIME_TYPE } from '../../src/advanced';
import { connectTestClient } from '../../src/testing';
import { ICON, VIEWS, ViewTools } from '../fixtures/view-tools';
import { createDeskApp, statusView } from '../readme/views.examples';

const ERAS = ['modern', 'legacy-http', 'legacy-memory'] as const;
const RENDERS = { extensions: { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } } };
const DESK_UI = {
  csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example.com', 'http://localhost:5173'] },
  permissions: { clipboardWrite: {} },
  prefersBorder: true
};

function makeApp() {
  const tools = new ViewTools();
  const app = FusionApp.create({ tools: [ViewTools], providers: [{ provide: ViewTools, useValue: tools }], views: VIEWS });
  return { app, tools };
}

describe('views (MCP Apps) through a real SDK client', () => {
  for (const era of ERAS) {
    it(`${era}: tools list their view, visibility, title, icons and _meta; app-only tools stay callable`, async () => {
      const { app, tools } = makeApp();
      const { client, close } = await connectTestClient(app, { era });
      const listed = (await client.listTools()).tools;
      expect(listed.find((t) => t.name === 'desk.list')).toMatchObject({
        title: 'Invoice desk',
        icons: [ICON],
        _meta: {
          'com.example/team': 'billing',
          ui: { resourceUri: 'ui://desk/main', visibility: ['model', 'app'] },
          'ui/resourceUri': 'ui://desk/main'
        }
      });
      const refund = listed.find((t) => t.name === 'desk.refund')!;
      expect(refund._meta).toEqual({ ui: { visibility: ['app'] } });
      // Hiding an app-only tool from the model is the host's job: the server lists it and serves it.
      const result = await client.callTool({ name: 'desk.refund', arguments: { id: 7 } });
      expect(result.isError).toBeFalsy();
      expect(tools.refunded).toEqual([7]);
      const invalid = await client.callTool({ name: 'desk.refund', arguments: { id: 0 } });
      expect(invalid.isError).toBe(true);
      await close();
      await app.close();
    });

    it(`${era}: lists views as resources with _meta.ui and reads each form of document`, async () => {
      const { app } = makeApp();
      const { client, close } = await connectTestClient(app, { era });
      const { resources } = await client.listResources();
      expect(resources).toEqual(
        expect.arrayContaining([
          { uri: 'demo://notes', name: 'notes', icons: [ICON], _meta: { 'com.example/kind': 'notes' } },
          {
            uri: 'ui://desk/main',
            name: 'desk',
            title: 'Invoice desk',
            description: 'One row per invoice',
            mimeType: VIEW_MIME_TYPE,
            _meta: { ui: DESK_UI }
          },
          { uri: 'ui://desk/inline', name: 'inline', mimeType: VIEW_MIME_TYPE, _meta: { ui: {} } },
          { uri: 'ui://desk/made', name: 'made', mimeType: VIEW_MIME_TYPE, _meta: { ui: { domain: 'a904794854a047f6.example.com' } } }
        ])
      );
      expect((await client.readResource({ uri: 'ui://desk/main' })).contents).toEqual([
        {
          uri: 'ui://desk/main',
          mimeType: VIEW_MIME_TYPE,
          text: readFileSync('test/fixtures/views/desk.html', 'utf8'),
          _meta: { ui: DESK_UI }
        }
      ]);
      expect((await client.readResource({ uri: 'ui://desk/inline' })).contents[0]).toMatchObject({
        text: '<!DOCTYPE html><html><body>Inline</body></html>'
      });
      expect((await client.readResource({ uri: 'ui://desk/made' })).contents[0]).toEqual({
        uri: 'ui://desk/made',
        mimeType: VIEW_MIME_TYPE,
        text: '<!DOCTYPE html><html><body>Made for ui://desk/made</body></html>',
        _meta: { ui: { domain: 'a904794854a047f6.example.com' } }
      });
      await expect(client.readResource({ uri: 'ui://desk/none' })).rejects.toMatchObject({ code: -32602 });
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates).toEqual([
        { uriTemplate: 'demo://items/{id}', name: 'item', title: 'Item', icons: [ICON], _meta: { 'com.example/kind': 'item' } }
      ]);
      const { prompts } = await client.listPrompts();
      expect(prompts).toEqual([
        {
          name: 'desk.summary',
          title: 'Desk summary',
          description: 'Summarize the desk',
          icons: [ICON],
          _meta: { 'com.example/kind': 'prompt' }
        }
      ]);
      await close();
      await app.close();
    });

    it(`${era}: advertises the extension and answers rendersViews from the caller's capabilities`, async () => {
      const { app } = makeApp();
      const host = await connectTestClient(app, { era, capabilities: RENDERS as never });
      expect(host.client.getServerCapabilities()?.extensions).toEqual({ [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } });
      const rendered = await host.client.callTool({ name: 'desk.list', arguments: {} });
      expect(JSON.parse((rendered.content as Array<{ text: string }>)[0].text)).toMatchObject({ rendersViews: true });
      const plain = await connectTestClient(app, { era });
      const text = await plain.client.callTool({ name: 'desk.list', arguments: {} });
      expect(JSON.parse((text.content as Array<{ text: string }>)[0].text)).toMatchObject({ rendersViews: false });
      await host.close();
      await plain.close();
      await app.close();
    });
  }

  it('an app without views does not advertise the extension', async () => {
    const app = FusionApp.create({ tools: [] });
    for (const era of ERAS) {
      const { client, close } = await connectTestClient(app, { era });
      expect(client.getServerCapabilities()?.extensions?.[UI_EXTENSION]).toBeUndefined();
      await close();
    }
    await app.close();
  });
});

describe('the views guide', () => {
  it('starts the app it declares: billing.list names the desk, billing.refund is app-only', async () => {
    const app = createDeskApp('test/fixtures/views/desk.html');
    const { client, close } = await connectTestClient(app, { capabilities: RENDERS as never });
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => [t.name, t._meta?.ui])).toEqual([
      ['billing.list', { resourceUri: 'ui://billing/desk', visibility: ['model', 'app'] }],
      ['billing.refund', { visibility: ['app'] }]
    ]);
    const listed = await client.callTool({ name: 'billing.list', arguments: {} });
    expect(JSON.parse((listed.content as Array<{ text: string }>)[0].text)).toMatchObject({ note: 'Shown in the invoice desk.' });
    await close();
    await app.close();
    expect(statusView.uri).toBe('ui://billing/status');
  });
});
